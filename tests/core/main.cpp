// The one translation unit that compiles Catch2's runner; the tests live in the *_test.cpp files.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
