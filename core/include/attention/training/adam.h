// Adam (Kingma and Ba, "Adam: A Method for Stochastic Optimization", 2015), the optimiser the
// trainer uses, with its settings shown and settable. For a gradient g at step t (from 1):
//   m = β1 m + (1 − β1) g        v = β2 v + (1 − β2) g²
//   θ = θ − lr · (m / (1 − β1^t)) / (√(v / (1 − β2^t)) + ε)
// β^t is kept as a running product (no pow(), whose last bit may differ between C libraries),
// and every step is float32 arithmetic in the same order everywhere: the same run gives the same
// parameters bit for bit in every browser and in Node.
#pragma once

#include <cstdint>
#include <optional>

#include "attention/reference/attention_input.h"
#include "attention/training/tiny_lm.h"

namespace attn::training {

struct AdamSettings {
  double learning_rate = 0.03;
  double beta1 = 0.9;
  double beta2 = 0.999;
  double epsilon = 1e-8;
};

struct AdamLimits {
  // Large enough to watch a run diverge, which the trainer stops and undoes.
  static constexpr double max_learning_rate = 1e6;
  static constexpr double max_epsilon = 1.0;
};

// learning_rate a finite number in (0, 1e6]; beta1 and beta2 in [0, 1); epsilon in (0, 1].
// Paths name the setting ("learning_rate: must be a positive finite number, got -1").
std::optional<InputError> validate_adam_settings(const AdamSettings& settings);

struct AdamState {
  Parameters first_moment;   // m
  Parameters second_moment;  // v
  std::uint64_t steps = 0;   // t
  double beta1_power = 1.0;  // β1^t
  double beta2_power = 1.0;  // β2^t
};

AdamState zero_adam_state(const ModelShape& shape);

// One step: updates `state` and moves `parameters` against `gradients`.
void adam_step(Parameters& parameters, const Parameters& gradients, const AdamSettings& settings,
               AdamState& state);

}  // namespace attn::training
