// Embind glue for the core's vocabulary (mask and scale variants, request defaults, limits) as
// one JSON string. In every build, the embed one too: its elements name the variants.
#include <emscripten/bind.h>

#include "attention/json/vocabulary_json.h"

EMSCRIPTEN_BINDINGS(attention_vocabulary) {
  emscripten::function("vocabularyJson", &attn::vocabulary_json);
}
