// Embind glue for the trainer (core/include/attention/training/trainer_json.h): JSON strings in
// and out, errors as values (JsonResult, registered in attention_bindings.cpp). Each trainer
// lives in a slot of this file and is named by its index; the JS wrapper (web/api/trainer.js)
// owns the index and frees the slot on dispose(). Reading, checking and arithmetic all live in
// the core.
#include <emscripten/bind.h>

#include <memory>
#include <string>
#include <vector>

#include "attention/training/trainer_json.h"
#include "json_result.h"

namespace {

using attn::bindings::JsonResult;
using attn::bindings::failure;
using attn::bindings::from_json_or_error;
using attn::bindings::success;
using attn::training::Trainer;

std::vector<std::unique_ptr<Trainer>>& trainers() {
  static std::vector<std::unique_ptr<Trainer>> slots;
  return slots;
}

Trainer* trainer_at(int id) {
  auto& slots = trainers();
  return id >= 0 && static_cast<std::size_t>(id) < slots.size() ? slots[id].get() : nullptr;
}

const attn::InputError disposed{"trainer", "trainer: disposed; create another with attention.trainer()"};

// Keeps `trainer` in the first free slot and returns the slot's index.
std::size_t take_slot(std::unique_ptr<Trainer> trainer) {
  auto& slots = trainers();
  std::size_t slot = 0;
  while (slot < slots.size() && slots[slot]) ++slot;
  if (slot == slots.size()) slots.emplace_back();
  slots[slot] = std::move(trainer);
  return slot;
}

// Answer: the new trainer's slot, as JSON.
JsonResult trainer_create(const std::string& options) {
  auto created = attn::training::trainer_from_json(options);
  if (const auto* error = std::get_if<attn::InputError>(&created)) return failure(*error);
  return success(std::to_string(take_slot(std::move(std::get<std::unique_ptr<Trainer>>(created)))));
}

JsonResult trainer_step(int id, const std::string& steps) {
  Trainer* trainer = trainer_at(id);
  return trainer ? from_json_or_error(attn::training::trainer_step_json(*trainer, steps)) : failure(disposed);
}

// Answer: the slot of a new trainer forked from `id` (Trainer::fork), as JSON.
JsonResult trainer_fork(int id) {
  Trainer* trainer = trainer_at(id);
  if (!trainer) return failure(disposed);
  return success(std::to_string(take_slot(trainer->fork())));
}

JsonResult trainer_state(int id) {
  Trainer* trainer = trainer_at(id);
  return trainer ? success(attn::training::trainer_state_json(*trainer)) : failure(disposed);
}

JsonResult trainer_set_optimiser(int id, const std::string& settings) {
  Trainer* trainer = trainer_at(id);
  return trainer ? from_json_or_error(attn::training::trainer_set_optimiser_json(*trainer, settings))
                 : failure(disposed);
}

JsonResult trainer_attend(int id, const std::string& tokens) {
  Trainer* trainer = trainer_at(id);
  return trainer ? from_json_or_error(attn::training::trainer_attend_json(*trainer, tokens)) : failure(disposed);
}

bool trainer_dispose(int id) {
  if (!trainer_at(id)) return false;
  trainers()[id].reset();
  return true;
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_trainer) {
  emscripten::function("trainerCreate", &trainer_create);
  emscripten::function("trainerStep", &trainer_step);
  emscripten::function("trainerFork", &trainer_fork);
  emscripten::function("trainerState", &trainer_state);
  emscripten::function("trainerSetOptimiser", &trainer_set_optimiser);
  emscripten::function("trainerAttend", &trainer_attend);
  emscripten::function("trainerDispose", &trainer_dispose);
}
