// attention-by-hand: prints the article's walkthrough and checks every number the article
// prints (no arguments), computes the trace of any attention input given as JSON, or trains the
// training page's one-layer model and prints its state.
//
// Exit codes: 0 success; 1 a number the article prints has drifted; 2 bad input or usage.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <sstream>
#include <string>
#include <variant>

#include "attention/article/article_claims.h"
#include "attention/json/json.h"
#include "attention/json/json_io.h"
#include "attention/reference/trace.h"
#include "attention/training/trainer_json.h"
#include "walkthrough_text.h"

namespace {

constexpr const char* usage =
    "usage: attention-by-hand              print the walkthrough and check the article's numbers\n"
    "       attention-by-hand --json FILE  print the trace of FILE's input as JSON (- reads stdin)\n"
    "       attention-by-hand --train STEPS [--seed S]\n"
    "                                      train the one-layer model of the training page for\n"
    "                                      STEPS steps and print its state (parameters) as JSON\n"
    "       attention-by-hand --help\n";

int fail_input(const std::string& message) {
  std::cerr << "error: " << message << '\n';
  return 2;
}

int run_walkthrough() {
  std::ostringstream text;
  attn::cli::print_walkthrough(text);
  std::cout << text.str();

  int drifted = 0, total = 0;
  for (const attn::article::ClaimCheck& claim : attn::article::check_claims()) {
    ++total;
    if (claim.matches) continue;
    ++drifted;
    std::cerr << "drifted: " << claim.what << ": the article prints " << claim.printed
              << ", the core computes " << claim.computed << '\n';
  }
  if (drifted) {
    std::cerr << drifted << " of " << total << " numbers the article prints no longer match\n";
    return 1;
  }
  std::cout << "Checked " << total << " numbers the article prints: all match.\n";
  return 0;
}

int run_json(const std::string& source) {
  std::string text;
  if (source == "-") {
    text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  } else {
    std::ifstream file(source, std::ios::binary);
    if (!file) {
      // The whole path, JSON-escaped: a line break in a file name stays on the one line.
      std::string shown;
      attn::json::write_string(shown, source);
      return fail_input("--json: cannot read file " + shown);
    }
    text.assign(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
  }
  const auto parsed = attn::parse_attention_input(text);
  if (const auto* error = std::get_if<attn::InputError>(&parsed)) return fail_input(error->message);
  const attn::Trace trace = attn::compute_trace(std::get<attn::AttentionInput>(parsed));
  std::cout << attn::trace_to_json(trace) << '\n';
  return 0;
}

// The trainer's state after `steps` steps from `seed`, as the wasm module's trainer reports it:
// the native build's numbers, for comparing with the browser's.
int run_training(const std::string& steps, const std::string& seed) {
  if (seed.empty() || seed.find_first_not_of("0123456789") != std::string::npos)
    return fail_input("--seed: must be a whole number from 0 to 2^53 - 1, got " +
                      attn::json::quoted_excerpt(seed, 40));
  const auto created = attn::training::trainer_from_json("{\"seed\":" + seed + "}");
  if (const auto* error = std::get_if<attn::InputError>(&created))
    return fail_input("--seed: " + error->message);
  attn::training::Trainer& trainer = *std::get<std::unique_ptr<attn::training::Trainer>>(created);
  const auto report = attn::training::trainer_step_json(trainer, steps);
  if (const auto* error = std::get_if<attn::InputError>(&report))
    return fail_input("--train: " + error->message);
  std::cout << attn::training::trainer_state_json(trainer) << '\n';
  return 0;
}

// What is wrong with a command line that matches no usage line: the first argument out of
// place, named, so that a typo is found without comparing the line with the usage.
std::string bad_arguments(int argc, char** argv) {
  const auto quoted = [](const char* argument) { return attn::json::quoted_excerpt(argument, 40); };
  const std::string first = argv[1];
  const auto extra = [&](int at, const std::string& after) {
    return "unexpected argument " + quoted(argv[at]) + " after " + after;
  };
  if (first == "--help" || first == "-h") return extra(2, first);
  if (first == "--json") {
    if (argc == 2) return "--json needs a FILE (- reads standard input)";
    return extra(3, "--json FILE");
  }
  if (first == "--train") {
    if (argc == 2) return "--train needs a number of STEPS";
    if (std::string(argv[3]) != "--seed") return extra(3, "--train STEPS");
    if (argc == 4) return "--seed needs a number";
    return extra(5, "--train STEPS --seed S");
  }
  if (first == "--seed") return "--seed goes after --train STEPS";
  return "unknown argument " + quoted(argv[1]);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string first = argc > 1 ? argv[1] : "";
  if (argc == 1) return run_walkthrough();
  if (argc == 2 && (first == "--help" || first == "-h")) {
    std::cout << usage;
    return 0;
  }
  if (argc == 3 && first == "--json") return run_json(argv[2]);
  if (first == "--train" && (argc == 3 || (argc == 5 && std::string(argv[3]) == "--seed")))
    return run_training(argv[2], argc == 5 ? argv[4] : "1");
  std::cerr << "error: " << bad_arguments(argc, argv) << '\n' << usage;
  return 2;
}
