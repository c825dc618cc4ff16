// Reading the trainer's requests member by member (json_request.h), and writing its answers.
#include "attention/training/trainer_json.h"

#include <cstdint>
#include <initializer_list>
#include <string>

#include "attention/json/json.h"
#include "json/json_request.h"

namespace attn::training {

namespace {

using json::Value;
using Type = Value::Type;
using namespace json_request;

// A number member into `out` (absent: `out` unchanged). Only its type is checked here: the range
// is validate_adam_settings's, so that the JSON and C++ callers get one message.
std::optional<InputError> read_setting(const Value& root, std::string_view key, double& out) {
  const Value* member = root.find(key);
  if (!member) return std::nullopt;
  if (member->type != Type::number) {
    const std::string meaning = key == "learning_rate" ? "a positive finite number" : "a number";
    return make_input_error(std::string(key), "must be " + meaning + ", " + got(*member));
  }
  out = member->number;
  return std::nullopt;
}

std::optional<InputError> read_adam(const Value& root, AdamSettings& settings) {
  for (auto [key, field] : {std::pair{"learning_rate", &settings.learning_rate},
                            std::pair{"beta1", &settings.beta1}, std::pair{"beta2", &settings.beta2},
                            std::pair{"epsilon", &settings.epsilon}})
    if (auto error = read_setting(root, key, *field)) return error;
  return validate_adam_settings(settings);
}

std::optional<InputError> read_sentences(const Value& corpus, std::string_view key,
                                         std::vector<std::string>& out) {
  const std::string path = "corpus." + std::string(key);
  const Value* member = corpus.find(key);
  if (!member) return std::nullopt;
  if (member->type != Type::array)
    return make_input_error(path, "must be an array of sentences (strings of words), " + got(*member));
  if (member->array.size() > CorpusLimits::max_sentences)
    return make_input_error(path, "has " + std::to_string(member->array.size()) +
                                      " sentences; the limit is " +
                                      std::to_string(CorpusLimits::max_sentences));
  for (std::size_t s = 0; s < member->array.size(); ++s) {
    const Value& sentence = member->array[s];
    if (sentence.type != Type::string)
      return make_input_error(index_path(path, s),
                              "must be a sentence, a string of words separated by spaces, " + got(sentence));
    out.push_back(sentence.string);
  }
  return std::nullopt;
}

std::optional<InputError> read_corpus(const Value& root, std::optional<CorpusText>& out) {
  const Value* corpus = root.find("corpus");
  if (!corpus) return std::nullopt;
  if (corpus->type != Type::object)
    return make_input_error("corpus", "must be an object {train, held_out}, " + got(*corpus));
  for (const auto& [key, value] : corpus->object)
    if (key != "train" && key != "held_out")
      return make_input_error("corpus." + key, "is not a known field (expected train, held_out)");
  if (!corpus->find("train"))
    return make_input_error("corpus.train", "is missing (expected an array of sentences)");
  CorpusText text;
  if (auto error = read_sentences(*corpus, "train", text.train)) return error;
  if (auto error = read_sentences(*corpus, "held_out", text.held_out)) return error;
  out = std::move(text);
  return std::nullopt;
}

void write_optimiser(std::string& out, const AdamSettings& adam) {
  out += '{';
  write_key(out, "learning_rate"); write_shortest(out, adam.learning_rate);
  write_key(out, "beta1"); write_shortest(out, adam.beta1);
  write_key(out, "beta2"); write_shortest(out, adam.beta2);
  write_key(out, "epsilon"); write_shortest(out, adam.epsilon);
  out += '}';
}

void write_tables(std::string& out, const std::vector<Matrix>& tables) {
  out += '[';
  for (std::size_t n = 0; n < tables.size(); ++n) {
    if (n) out += ',';
    write_matrix(out, tables[n]);
  }
  out += ']';
}

void write_parameters(std::string& out, const Parameters& parameters) {
  out += '{';
  write_key(out, "embedding"); write_matrix(out, parameters.embedding);
  write_key(out, "position"); write_matrix(out, parameters.position);
  write_key(out, "w_q"); write_tables(out, parameters.w_q);
  write_key(out, "w_k"); write_tables(out, parameters.w_k);
  write_key(out, "w_v"); write_tables(out, parameters.w_v);
  write_key(out, "w_o"); write_matrix(out, parameters.w_o);
  write_key(out, "unembedding"); write_matrix(out, parameters.unembedding);
  write_key(out, "bias"); write_numbers(out, parameters.bias);
  out += '}';
}

}  // namespace

std::variant<std::unique_ptr<Trainer>, InputError> trainer_from_json(std::string_view options) {
  auto parsed = parse_request(options, {"seed", "d_model", "n_heads", "learning_rate", "beta1",
                                        "beta2", "epsilon", "corpus"});
  if (auto* error = std::get_if<InputError>(&parsed)) return *error;
  const Value& root = std::get<Value>(parsed);
  TrainerOptions read;
  if (auto error = read_seed(root, read.seed)) return *error;
  if (auto error = read_count(root, "d_model", 1, ModelLimits::max_d_model, read.d_model)) return *error;
  if (auto error = read_count(root, "n_heads", 1, ModelLimits::max_heads, read.n_heads)) return *error;
  if (auto error = read_adam(root, read.adam)) return *error;
  if (auto error = read_corpus(root, read.corpus)) return *error;
  return Trainer::create(read);
}

JsonOrError trainer_step_json(Trainer& trainer, std::string_view steps) {
  auto parsed = parse_within_limit(steps);
  if (auto* error = std::get_if<InputError>(&parsed)) return *error;
  double count = 0.0;
  if (auto error = read_whole_value(std::get<Value>(parsed), "steps", 1.0,
                                    static_cast<double>(TrainerLimits::max_steps_per_call), count))
    return *error;
  const StepReport report = trainer.step(static_cast<std::size_t>(count));
  std::string out = "{";
  write_key(out, "step"); json::write_number(out, static_cast<double>(report.step));
  write_key(out, "loss"); write_shortest(out, report.loss);
  write_key(out, "diverged"); write_bool(out, report.stopped.has_value());
  if (report.stopped) {
    write_key(out, "message");
    json::write_string(out, *report.stopped);
  }
  out += '}';
  return out;
}

std::string trainer_state_json(const Trainer& trainer) {
  const ModelShape& shape = trainer.shape();
  const Corpus& corpus = trainer.corpus();
  std::string out = "{";
  write_key(out, "step"); json::write_number(out, static_cast<double>(trainer.steps_taken()));
  write_key(out, "default_steps"); json::write_number(out, static_cast<double>(default_training_steps));
  write_key(out, "loss"); write_shortest(out, trainer.training_loss());
  write_key(out, "held_out_loss");
  if (const auto held_out = trainer.held_out_loss()) write_shortest(out, *held_out);
  else out += "null";
  write_key(out, "vocabulary"); write_strings(out, corpus.vocabulary);
  write_key(out, "corpus"); out += '{';
  write_key(out, "train"); write_strings(out, corpus.text.train);
  write_key(out, "held_out"); write_strings(out, corpus.text.held_out);
  out += '}';
  write_key(out, "baselines"); out += '{';
  write_key(out, "unigram"); write_shortest(out, trainer.baselines().unigram);
  write_key(out, "bigram"); write_shortest(out, trainer.baselines().bigram);
  out += '}';
  write_key(out, "model"); out += '{';
  write_key(out, "d_model"); json::write_number(out, static_cast<double>(shape.d_model));
  write_key(out, "n_heads"); json::write_number(out, static_cast<double>(shape.n_heads));
  write_key(out, "head_dim"); json::write_number(out, static_cast<double>(shape.head_dim()));
  write_key(out, "positions"); json::write_number(out, static_cast<double>(shape.positions));
  write_key(out, "seed"); json::write_number(out, static_cast<double>(trainer.seed()));
  out += '}';
  write_key(out, "optimiser"); write_optimiser(out, trainer.adam());
  // 16 lowercase hexadecimal digits, leading zeros too ("%016llx").
  std::string digest(16, '0');
  std::uint64_t bits = parameter_digest(trainer.parameters());
  for (int n = 15; n >= 0; --n, bits >>= 4) digest[n] = "0123456789abcdef"[bits & 15u];
  write_key(out, "parameter_digest"); json::write_string(out, digest);
  write_key(out, "parameters"); write_parameters(out, trainer.parameters());
  out += '}';
  return out;
}

JsonOrError trainer_set_optimiser_json(Trainer& trainer, std::string_view settings) {
  auto parsed = parse_request(settings, {"learning_rate", "beta1", "beta2", "epsilon"});
  if (auto* error = std::get_if<InputError>(&parsed)) return *error;
  AdamSettings adam = trainer.adam();
  if (auto error = read_adam(std::get<Value>(parsed), adam)) return *error;
  if (auto error = trainer.set_adam(adam)) return *error;
  std::string out;
  write_optimiser(out, trainer.adam());
  return out;
}

JsonOrError trainer_attend_json(const Trainer& trainer, std::string_view tokens) {
  auto parsed = parse_within_limit(tokens);
  if (auto* error = std::get_if<InputError>(&parsed)) return *error;
  const Value& root = std::get<Value>(parsed);
  if (root.type != Type::array)
    return make_input_error("tokens", "must be an array of words, " + got(root));
  std::vector<std::string> words;
  for (std::size_t n = 0; n < root.array.size(); ++n) {
    if (root.array[n].type != Type::string)
      return make_input_error(index_path("tokens", n), "must be a word (a string), " + got(root.array[n]));
    words.push_back(root.array[n].string);
  }
  auto result = trainer.attend(words);
  if (auto* error = std::get_if<InputError>(&result)) return *error;
  const AttendResult& attended = std::get<AttendResult>(result);
  std::string out = multi_head_to_json(attended.layer);
  out.pop_back();  // the layer's closing brace: the model's own members follow
  write_key(out, "residual"); write_matrix(out, attended.residual);
  write_key(out, "probabilities"); write_matrix(out, attended.probabilities);
  write_key(out, "vocabulary"); write_strings(out, trainer.corpus().vocabulary);
  out += '}';
  return out;
}

}  // namespace attn::training
