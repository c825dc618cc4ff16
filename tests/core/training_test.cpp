// The trainer: the default corpus and its baselines, determinism, the default run beating the
// bigram baseline with the head doing its job, attend(), and every refusal leaving the trainer
// as it was.
#include <catch2/catch.hpp>

#include <cmath>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "attention/training/trainer.h"
#include "attention/training/trainer_json.h"

namespace {

using namespace attn::training;

std::unique_ptr<Trainer> make_trainer(const TrainerOptions& options = {}) {
  auto created = Trainer::create(options);
  if (auto* error = std::get_if<attn::InputError>(&created)) FAIL(error->message);
  return std::move(std::get<std::unique_ptr<Trainer>>(created));
}

std::vector<std::string> words_of(const std::string& sentence) {
  std::vector<std::string> words;
  std::size_t start = 0;
  for (std::size_t space; (space = sentence.find(' ', start)) != std::string::npos; start = space + 1)
    words.push_back(sentence.substr(start, space - start));
  words.push_back(sentence.substr(start));
  return words;
}

std::string error_of(const attn::JsonOrError& result) {
  const auto* error = std::get_if<attn::InputError>(&result);
  return error ? error->message : "(no error)";
}

// The default run, trained once for the tests that read it.
const Trainer& trained_default() {
  static const std::unique_ptr<Trainer> trainer = [] {
    auto made = make_trainer();
    made->step(default_training_steps);
    return made;
  }();
  return *trainer;
}

}  // namespace

TEST_CASE("training corpus: distinct sentences, held out apart, each with its agreeing noun", "[training]") {
  const CorpusText text = default_corpus_text();
  CHECK(text.train.size() == default_train_sentences);
  CHECK(text.held_out.size() == default_held_out_sentences);
  std::set<std::string> train(text.train.begin(), text.train.end());
  CHECK(train.size() == text.train.size());
  for (const std::string& sentence : text.held_out) CHECK(train.count(sentence) == 0);
  for (const auto* set : {&text.train, &text.held_out})
    for (const std::string& sentence : *set) {
      const auto words = words_of(sentence);
      const auto noun = agreeing_noun_position(words);
      REQUIRE(noun.has_value());
      // Past the previous word: the noun is at least five words before the sound.
      CHECK(words.size() - 1 - *noun >= 6);
    }
  const Corpus corpus = std::get<Corpus>(build_corpus(text));
  CHECK(corpus.vocabulary.size() == 38);
}

TEST_CASE("training corpus: baselines by counting, worked by hand", "[training]") {
  // "a b a" and "a b": next words b, a, b. Unigram: p(b) = 2/3, p(a) = 1/3, so
  // −(2/3 ln 2/3 + 1/3 ln 1/3) = 0.636514168. Bigram: after a always b, after b always a, so 0.
  const Corpus corpus = std::get<Corpus>(build_corpus(CorpusText{{"a b a", "a b"}, {}}));
  const Baselines baselines = corpus_baselines(corpus.train, corpus.vocabulary.size());
  CHECK(baselines.unigram == Approx(0.636514168).epsilon(1e-8));
  CHECK(baselines.bigram == 0.0);
  // "x y", "x z": after x, y and z half each: ln 2 = 0.693147181 for both models.
  const Corpus even = std::get<Corpus>(build_corpus(CorpusText{{"x y", "x z"}, {}}));
  const Baselines halves = corpus_baselines(even.train, even.vocabulary.size());
  CHECK(halves.unigram == Approx(0.693147181).epsilon(1e-8));
  CHECK(halves.bigram == Approx(0.693147181).epsilon(1e-8));
}

TEST_CASE("training: the same seed and steps give bit-identical parameters", "[training]") {
  auto first = make_trainer(), second = make_trainer();
  first->step(7);
  second->step(3);
  second->step(4);
  CHECK(parameter_digest(first->parameters()) == parameter_digest(second->parameters()));
  CHECK(first->training_loss() == second->training_loss());
  TrainerOptions other;
  other.seed = 2;
  auto third = make_trainer(other);
  third->step(7);
  CHECK(parameter_digest(first->parameters()) != parameter_digest(third->parameters()));
}

TEST_CASE("training: a fork steps on bit for bit as its original would, and apart from it", "[training]") {
  auto original = make_trainer(), straight = make_trainer();
  original->step(5);
  auto fork = original->fork();
  CHECK(fork->steps_taken() == 5);
  CHECK(fork->training_loss() == original->training_loss());
  CHECK(parameter_digest(fork->parameters()) == parameter_digest(original->parameters()));
  // The fork goes on alone: its steps leave the original at step 5.
  fork->step(4);
  CHECK(original->steps_taken() == 5);
  straight->step(9);
  CHECK(fork->steps_taken() == 9);
  CHECK(parameter_digest(fork->parameters()) == parameter_digest(straight->parameters()));
  CHECK(fork->training_loss() == straight->training_loss());
  // The original, stepped on, still matches a straight run: the fork shared nothing with it.
  original->step(4);
  CHECK(parameter_digest(original->parameters()) == parameter_digest(straight->parameters()));
  // A changed learning rate is carried over.
  TrainerOptions slow;
  slow.adam.learning_rate = 0.01;
  auto slow_original = make_trainer(slow), slow_straight = make_trainer(slow);
  slow_original->step(2);
  auto slow_fork = slow_original->fork();
  slow_fork->step(3);
  slow_straight->step(5);
  CHECK(parameter_digest(slow_fork->parameters()) == parameter_digest(slow_straight->parameters()));
  CHECK(parameter_digest(slow_fork->parameters()) != parameter_digest(fork->parameters()));
}

TEST_CASE("training: the default run goes below the bigram baseline", "[training]") {
  const Trainer& trainer = trained_default();
  INFO("loss " << trainer.training_loss() << ", bigram " << trainer.baselines().bigram
               << ", unigram " << trainer.baselines().unigram);
  CHECK(trainer.steps_taken() == default_training_steps);
  CHECK(trainer.training_loss() < trainer.baselines().bigram);
  CHECK(trainer.baselines().bigram < trainer.baselines().unigram);
  const auto held_out = trainer.held_out_loss();
  REQUIRE(held_out.has_value());
  CHECK(std::isfinite(*held_out));
}

TEST_CASE("training: the trained head looks back from the word before the sound to the noun", "[training]") {
  const Trainer& trainer = trained_default();
  std::size_t found = 0, total = 0;
  for (const std::string& sentence : trainer.corpus().text.held_out) {
    const auto words = words_of(sentence);
    const std::size_t noun = *agreeing_noun_position(words);
    const auto attended = std::get<AttendResult>(trainer.attend(words));
    // The row that predicts the sound: the word just before it.
    const std::size_t row = words.size() - 2;
    const attn::Matrix& weights = attended.layer.heads[0].trace.weights;
    std::size_t largest = 0;
    for (std::size_t j = 1; j <= row; ++j)
      if (weights.at(row, j) > weights.at(row, largest)) largest = j;
    found += largest == noun ? 1 : 0;
    ++total;
  }
  INFO(found << " of " << total << " held-out sentences");
  CHECK(found * 2 > total);
}

TEST_CASE("training: attend() gives the training forward's numbers and part one's trace", "[training]") {
  const Trainer& trainer = trained_default();
  const Sentence& sentence = trainer.corpus().train[0];
  std::vector<std::string> words;
  for (const std::size_t w : sentence) words.push_back(trainer.corpus().vocabulary[w]);
  const auto attended = std::get<AttendResult>(trainer.attend(words));
  SentenceActivations activations;
  forward_sentence(trainer.parameters(), trainer.shape(), sentence, activations);
  CHECK(attended.probabilities.values == activations.probabilities.values);
  CHECK(attended.layer.heads[0].trace.weights.values == activations.heads[0].weights.values);
  // h = x + out: the layer's out plus x, added in float as the forward adds them.
  for (std::size_t n = 0; n < attended.residual.values.size(); ++n)
    CHECK(attended.residual.values[n] == attended.layer.x.values[n] + attended.layer.out.values[n]);
}

TEST_CASE("training: bad input is refused with its path and changes nothing", "[training]") {
  auto trainer = make_trainer();
  trainer->step(2);
  const std::uint64_t digest = parameter_digest(trainer->parameters());
  const double learning_rate = trainer->adam().learning_rate;

  const std::string unknown = error_of(trainer_attend_json(*trainer, R"(["the","cta","that"])"));
  CHECK(unknown.rfind("tokens[1]: \"cta\" is not in the vocabulary of 38 words; nearest: cat", 0) == 0);
  // A long word is quoted in part, cut between two UTF-8 characters (twenty euro signs are 60
  // bytes; 32 bytes would end inside the eleventh), and a quote inside it is escaped.
  std::string euros;
  for (int n = 0; n < 20; ++n) euros += "\xE2\x82\xAC";
  CHECK(error_of(trainer_attend_json(*trainer, "[\"the\",\"" + euros + "\"]"))
            .rfind("tokens[1]: \"" + euros.substr(0, 30) + "\xE2\x80\xA6\" is not in the vocabulary", 0) == 0);
  CHECK(error_of(trainer_attend_json(*trainer, R"(["a\"b"])")).rfind(R"(tokens[0]: "a\"b" is not)", 0) == 0);
  // A right-to-left override (U+202E) would turn the rest of the message around: it is written
  // as an escape, as is a zero-width space.
  CHECK(error_of(trainer_attend_json(*trainer, "[\"a\xE2\x80\xAE" "b\xE2\x80\x8B\"]"))
            .rfind(R"(tokens[0]: "a\u202eb\u200b" is not)", 0) == 0);
  CHECK_THAT(error_of(trainer_attend_json(*trainer, R"(["the","the","the","the","the","the","the","the","the","the","the","the","the","the","the","the","the"])")),
             Catch::StartsWith("tokens: has 17 words; the limit is 16"));
  CHECK_THAT(error_of(trainer_attend_json(*trainer, "[]")), Catch::StartsWith("tokens: is empty"));
  CHECK_THAT(error_of(trainer_attend_json(*trainer, R"(["the",3])")), Catch::StartsWith("tokens[1]: must be a word"));
  for (const char* rate : {"0", "-1", "\"NaN\"", "\"Infinity\"", "1e7"})
    CHECK_THAT(error_of(trainer_set_optimiser_json(*trainer, std::string(R"({"learning_rate":)") + rate + "}")),
               Catch::StartsWith("learning_rate: "));
  CHECK_THAT(error_of(trainer_set_optimiser_json(*trainer, R"({"learning_rate":0.1,"beta1":1})")),
             Catch::StartsWith("beta1: must be a number from 0 up to (not including) 1, got 1"));
  CHECK_THAT(error_of(trainer_step_json(*trainer, "0")), Catch::StartsWith("steps: "));
  CHECK_THAT(error_of(trainer_step_json(*trainer, "2.5")), Catch::StartsWith("steps: "));
  CHECK(trainer->adam().learning_rate == learning_rate);
  CHECK(trainer->steps_taken() == 2);
  CHECK(parameter_digest(trainer->parameters()) == digest);

  const auto refused = [](const std::string& options) {
    const auto created = trainer_from_json(options);
    const auto* error = std::get_if<attn::InputError>(&created);
    return error ? error->message : std::string("(created)");
  };
  CHECK_THAT(refused(R"({"learning_rate":0})"), Catch::StartsWith("learning_rate: must be a positive finite number, got 0"));
  CHECK_THAT(refused(R"({"learning_rate":"NaN"})"), Catch::StartsWith("learning_rate: must be a positive finite number, got \"NaN\""));
  CHECK_THAT(refused(R"({"n_heads":3})"), Catch::StartsWith("n_heads: must divide d_model (16)"));
  CHECK_THAT(refused(R"({"n_heads":5})"), Catch::StartsWith("n_heads: "));
  CHECK_THAT(refused(R"({"d_model":65})"), Catch::StartsWith("d_model: "));
  CHECK_THAT(refused(R"({"colour":1})"), Catch::StartsWith("colour: is not a known field"));
  CHECK_THAT(refused(R"({"corpus":{"train":[]}})"), Catch::StartsWith("corpus.train: is empty"));
  CHECK_THAT(refused(R"({"corpus":{"train":["cat"]}})"), Catch::StartsWith("corpus.train[0]: has 1 word"));
  CHECK_THAT(refused(R"({"corpus":{"train":["cat cat","cat cat cat"]}})"),
             Catch::StartsWith("corpus.train: has only one distinct word, \"cat\""));
  CHECK_THAT(refused(R"({"corpus":{"train":["a b c d e f g h i j k l m n o p q"]}})"),
             Catch::StartsWith("corpus.train[0]: has 17 words; the limit is 16"));
  CHECK_THAT(refused(R"({"corpus":{"train":["a b"],"held_out":["a c"]}})"),
             Catch::StartsWith("corpus.held_out[0][1]: \"c\" is not in the vocabulary"));
  CHECK_THAT(refused(R"({"corpus":{"train":["a  b"]}})"), Catch::StartsWith("corpus.train[0]: word 1 is empty"));
  CHECK(refused(R"({"corpus":{"train":["a b","b a"]}})") == "(created)");
}

TEST_CASE("training: a diverging run stops with a message and keeps the last good parameters", "[training]") {
  TrainerOptions options;
  options.adam.learning_rate = 1e6;
  auto trainer = make_trainer(options);
  const StepReport report = trainer->step(200);
  REQUIRE(report.stopped.has_value());
  INFO(*report.stopped);
  CHECK(report.stopped->find("diverged") != std::string::npos);
  CHECK(report.step < 200);
  CHECK(std::isfinite(report.loss));
  // The parameters are exactly those of the last good step, as a run stopped there has them.
  auto replay = make_trainer(options);
  if (report.step > 0) CHECK_FALSE(replay->step(report.step).stopped.has_value());
  CHECK(parameter_digest(trainer->parameters()) == parameter_digest(replay->parameters()));
  CHECK(trainer->training_loss() == replay->training_loss());
  // A smaller learning rate carries on from there.
  AdamSettings calmer = trainer->adam();
  calmer.learning_rate = 0.01;
  REQUIRE_FALSE(trainer->set_adam(calmer).has_value());
  CHECK_FALSE(trainer->step(1).stopped.has_value());
}

TEST_CASE("training: the state as JSON", "[training]") {
  auto trainer = make_trainer();
  const std::string state = trainer_state_json(*trainer);
  for (const char* key : {"\"step\":0", "\"held_out_loss\":", "\"vocabulary\":[\"a\",", "\"baselines\":{\"unigram\":",
                          "\"parameters\":{\"embedding\":[[", "\"w_q\":[[[", "\"bias\":[0,",
                          "\"optimiser\":{\"learning_rate\":0.03,\"beta1\":0.9,\"beta2\":0.999,\"epsilon\":1e-08}"})
    CHECK_THAT(state, Catch::Contains(key));
  const auto step = trainer_step_json(*trainer, "3");
  REQUIRE(std::holds_alternative<std::string>(step));
  CHECK_THAT(std::get<std::string>(step), Catch::StartsWith("{\"step\":3,\"loss\":") && Catch::EndsWith("\"diverged\":false}"));
}
