// Training the one-layer model (tiny_lm.h) on a corpus (training_corpus.h) with Adam (adam.h).
//
// Every step is full-batch: the gradient of the mean loss over every next word of every training
// sentence, so a run has no sampler and the same seed and steps give the same parameters bit for
// bit. A step whose new parameters give a non-finite loss or leave ±1e6 (what part one's layer
// accepts, so that attend() can show them) is a run that diverges, say from too large a learning
// rate, and is undone: the trainer stops there with a message and keeps the last good
// parameters and optimiser state.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "attention/layers/multi_head.h"
#include "attention/reference/attention_input.h"
#include "attention/training/adam.h"
#include "attention/training/tiny_lm.h"
#include "attention/training/training_corpus.h"

namespace attn::training {

struct TrainerOptions {
  std::uint64_t seed = 1;
  std::size_t d_model = 16;
  std::size_t n_heads = 1;
  AdamSettings adam;
  std::optional<CorpusText> corpus;  // the default corpus when absent
};

struct TrainerLimits {
  static constexpr std::size_t max_steps_per_call = 100000;
};

// How many steps the default run takes to settle (the CLI's and the page's default).
inline constexpr std::size_t default_training_steps = 200;

struct StepReport {
  std::uint64_t step = 0;             // optimiser steps taken since the start
  double loss = 0.0;                  // training loss of the parameters now held
  std::optional<std::string> stopped; // why the call stopped early (divergence), if it did
};

// The model applied to one sentence: part one's multi-head layer (each head's full trace), the
// residual and the next-word probabilities.
struct AttendResult {
  MultiHeadLayer layer;
  Matrix residual;       // h [T][d_model]
  Matrix probabilities;  // [T][V]
};

// Checks the shape: d_model in 1..64, n_heads in 1..4 dividing d_model ("n_heads: ...").
std::optional<InputError> validate_model_shape(std::size_t d_model, std::size_t n_heads);

class Trainer {
 public:
  // Checks the options (shape, Adam's settings, the corpus); the error names the field.
  static std::variant<std::unique_ptr<Trainer>, InputError> create(const TrainerOptions& options);

  // Takes `count` optimiser steps (1..max_steps_per_call, checked by the caller), or fewer when
  // the run diverges.
  StepReport step(std::size_t count);

  std::uint64_t steps_taken() const { return adam_state_.steps; }
  double training_loss() const { return training_loss_; }
  // Mean loss over the held-out sentences, which the model never trains on (none: nothing).
  std::optional<double> held_out_loss() const;

  // An independent trainer holding this one's parameters, optimiser state, settings and step:
  // stepping it gives, bit for bit, what stepping this one would. It keeps no activations until
  // its first step (then recomputed from the parameters, the same bits), so a fork kept as a
  // checkpoint costs the parameters, the gradient buffer and Adam's two moments only.
  std::unique_ptr<Trainer> fork() const;

  // Replaces Adam's settings (validate_adam_settings; on an error nothing changes).
  std::optional<InputError> set_adam(const AdamSettings& settings);

  // The model on `words` with the current parameters; refuses an empty list, more words than
  // the position table has rows and unknown words, naming "tokens" or "tokens[i]".
  std::variant<AttendResult, InputError> attend(const std::vector<std::string>& words) const;

  const Parameters& parameters() const { return parameters_; }
  const ModelShape& shape() const { return shape_; }
  const Corpus& corpus() const { return corpus_; }
  const Baselines& baselines() const { return baselines_; }
  const AdamSettings& adam() const { return adam_; }
  std::uint64_t seed() const { return seed_; }

 private:
  Trainer() = default;
  // Forward pass over every training sentence, keeping the activations: the mean loss.
  double forward_training_set();

  ModelShape shape_;
  std::uint64_t seed_ = 1;
  Corpus corpus_;
  Baselines baselines_;
  Parameters parameters_;
  Parameters gradients_;
  AdamSettings adam_;
  AdamState adam_state_;
  std::vector<SentenceActivations> activations_;  // [training sentences]
  double training_loss_ = 0.0;
};

}  // namespace attn::training
