// The model's forward pass against an independent float64 forward, and the backward pass of
// every parameter (E, P, each head's W_Q, W_K, W_V, W_O, U, b) against central finite
// differences of that float64 loss.
#include <catch2/catch.hpp>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "attention/training/tiny_lm.h"
#include "attention/training/trainer.h"
#include "tiny_lm_f64.h"

namespace {

using namespace attn::training;

const char* const table_names[] = {"E", "P", "W_Q/W_K/W_V/W_O/U/b"};

// A small model on a small corpus, so that every parameter can be perturbed.
struct SmallModel {
  ModelShape shape;
  Parameters parameters;
  std::vector<Sentence> sentences;
};

SmallModel small_model(std::size_t d_model, std::size_t n_heads, std::uint64_t seed) {
  const auto corpus = std::get<Corpus>(build_corpus(CorpusText{
      {"the cat that sat purrs", "the dog that sat barks", "a dog slept", "the cat purrs"}, {}}));
  SmallModel model;
  model.shape = ModelShape{corpus.vocabulary.size(), d_model, n_heads, 6};
  model.parameters = seeded_parameters(model.shape, seed);
  // Larger than the seeded start, so that every softmax is far from uniform and every path of
  // the gradient carries weight: each value scaled by 4 and b given values of its own.
  for_each_table(model.parameters, [](float* values, std::size_t count) {
    for (std::size_t n = 0; n < count; ++n) values[n] *= 4.0f;
  });
  for (std::size_t v = 0; v < model.parameters.bias.size(); ++v)
    model.parameters.bias[v] = 0.25f * static_cast<float>(v % 3) - 0.25f;
  model.sentences = corpus.train;
  return model;
}

Parameters analytic_gradient(const SmallModel& model) {
  Parameters gradients = zero_parameters(model.shape);
  const float scale = 1.0f / static_cast<float>(predicted_word_count(model.sentences));
  SentenceActivations activations;
  for (const Sentence& sentence : model.sentences) {
    forward_sentence(model.parameters, model.shape, sentence, activations);
    backward_sentence(model.parameters, model.shape, sentence, activations, scale, gradients);
  }
  return gradients;
}

void check_every_gradient(const SmallModel& model) {
  const attn_test::ParametersF64 at = attn_test::to_f64(model.parameters);
  const attn_test::ParametersF64 analytic = attn_test::to_f64(analytic_gradient(model));
  const double step = 1e-5;
  std::size_t nonzero = 0, total = 0;
  for (std::size_t table = 0; table < at.tables.size(); ++table) {
    for (std::size_t n = 0; n < at.tables[table].size(); ++n) {
      attn_test::ParametersF64 plus = at, minus = at;
      plus.tables[table][n] += step;
      minus.tables[table][n] -= step;
      const double numeric = (attn_test::mean_loss_f64(plus, model.shape, model.sentences) -
                              attn_test::mean_loss_f64(minus, model.shape, model.sentences)) /
                             (2.0 * step);
      const double core = analytic.tables[table][n];
      if (std::fabs(numeric) > 1e-4) ++nonzero;
      ++total;
      INFO("table " << table << " (in order " << table_names[std::min<std::size_t>(table, 2)]
                    << ") entry " << n << ": core " << core << ", finite difference " << numeric);
      // The core's gradient is float32 arithmetic (about 1e-7 relative per operation); the
      // finite difference's truncation error is O(step²) and its rounding about 1e-16 / step.
      CHECK(std::fabs(core - numeric) <= 2e-5 + 1e-3 * std::fabs(numeric));
    }
  }
  // The check means something only if most gradients are not zero (P's unused last row and
  // E's rows of words that only end sentences are).
  INFO(nonzero << " of " << total << " gradients are not zero");
  CHECK(nonzero * 3 > total * 2);
}

}  // namespace

TEST_CASE("training: every parameter's gradient matches central finite differences, one head", "[training]") {
  check_every_gradient(small_model(4, 1, 3));
}

TEST_CASE("training: every parameter's gradient matches central finite differences, two heads", "[training]") {
  check_every_gradient(small_model(6, 2, 5));
}

TEST_CASE("training: the loss matches an independent float64 forward", "[training]") {
  for (const std::size_t n_heads : {1u, 2u, 4u}) {
    TrainerOptions options;
    options.n_heads = n_heads;
    options.seed = 11;
    auto trainer = std::move(std::get<std::unique_ptr<Trainer>>(Trainer::create(options)));
    trainer->step(5);  // away from the seeded start, where the loss is about ln V
    const double reference = attn_test::mean_loss_f64(attn_test::to_f64(trainer->parameters()),
                                                      trainer->shape(), trainer->corpus().train);
    INFO("n_heads " << n_heads << ": core " << trainer->training_loss() << ", float64 " << reference);
    CHECK(std::fabs(trainer->training_loss() - reference) <= 1e-5 * reference);
    const double held_out = attn_test::mean_loss_f64(attn_test::to_f64(trainer->parameters()),
                                                     trainer->shape(), trainer->corpus().held_out);
    CHECK(std::fabs(*trainer->held_out_loss() - held_out) <= 1e-5 * held_out);
  }
}
