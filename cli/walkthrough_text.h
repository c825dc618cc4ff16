// The article's walkthrough as plain-text tables, every number taken from the core.
#pragma once

#include <ostream>

namespace attn::cli {

void print_walkthrough(std::ostream& out);

}  // namespace attn::cli
