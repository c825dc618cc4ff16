// JSON in and out for the trainer, shared by the wasm module, the CLI and the tests, so every
// caller gets the same checks and the same messages, named by JSON path.
//
// Options (every member optional): {"seed": 1, "d_model": 16, "n_heads": 1,
//   "learning_rate": 0.03, "beta1": 0.9, "beta2": 0.999, "epsilon": 1e-8,
//   "corpus": {"train": ["the cat sat", ...], "held_out": [...]}}
// (a corpus replaces the default one; its sentences are words separated by single spaces).
//
// State: {"step", "default_steps" (how long the default run is), "loss", "held_out_loss" (null without held-out sentences), "vocabulary",
//   "corpus": {"train", "held_out"}, "baselines": {"unigram", "bigram"},
//   "model": {"d_model", "n_heads", "head_dim", "positions", "seed"},
//   "optimiser": {"learning_rate", "beta1", "beta2", "epsilon"}, "parameter_digest" (16 hex
//   digits, parameter_digest()), "parameters": {"embedding", "position", "w_q": [per head],
//   "w_k", "w_v", "w_o", "unembedding", "bias"}}. Parameters are written with 9 significant
// digits, which read back as the same float32 bit for bit.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <variant>

#include "attention/json/explore_json.h"
#include "attention/training/trainer.h"

namespace attn::training {

std::variant<std::unique_ptr<Trainer>, InputError> trainer_from_json(std::string_view options);

// Request: the number of steps, a whole number from 1 to 100000. Answer: {"step", "loss",
// "diverged": false} or, when the run diverged, {"step", "loss", "diverged": true, "message"}
// with the last good parameters' step and loss.
JsonOrError trainer_step_json(Trainer& trainer, std::string_view steps);

std::string trainer_state_json(const Trainer& trainer);

// Request: {"learning_rate", "beta1", "beta2", "epsilon"}, each optional. Answer: the optimiser
// settings now in force. On an error nothing changes.
JsonOrError trainer_set_optimiser_json(Trainer& trainer, std::string_view settings);

// Request: the words, an array of strings. Answer: multi_head_json's answer (every head's trace,
// as run() returns it) for x_t = E[w_t] + P[t] and the trained weights, plus "residual" (h),
// "probabilities" ([T][V], each position's next-word distribution) and "vocabulary".
JsonOrError trainer_attend_json(const Trainer& trainer, std::string_view tokens);

}  // namespace attn::training
