#include "attention/training/trainer.h"

#include <cmath>
#include <string>
#include <utility>

namespace attn::training {

namespace {

void fill_zero(Parameters& parameters) {
  for_each_table(parameters, [](float* values, std::size_t count) {
    std::fill(values, values + count, 0.0f);
  });
}

// Parameters within ±1e6 are what part one's layer accepts (MultiHeadLimits), so attend() can
// always show the model; a run that leaves them has diverged as surely as one whose loss is NaN.
bool parameters_within_limit(const Parameters& parameters) {
  bool within = true;
  for_each_table(parameters, [&](const float* values, std::size_t count) {
    for (std::size_t n = 0; n < count; ++n)
      within = within && std::fabs(values[n]) <= MultiHeadLimits::max_abs_value;  // false for NaN
  });
  return within;
}

std::string divergence_text(double loss) {
  if (std::isnan(loss)) return "the training loss became NaN";
  if (std::isinf(loss)) return "the training loss became infinite";
  return "a parameter left ±1e6";
}

}  // namespace

std::optional<InputError> validate_model_shape(std::size_t d_model, std::size_t n_heads) {
  if (d_model < 1 || d_model > ModelLimits::max_d_model)
    return make_input_error("d_model", "is " + std::to_string(d_model) + "; it must be from 1 to " +
                                           std::to_string(ModelLimits::max_d_model));
  if (n_heads < 1 || n_heads > ModelLimits::max_heads)
    return make_input_error("n_heads", "is " + std::to_string(n_heads) + "; it must be from 1 to " +
                                           std::to_string(ModelLimits::max_heads));
  if (d_model % n_heads != 0)
    return make_input_error("n_heads", "must divide d_model (" + std::to_string(d_model) +
                                           ") into heads of equal width, got " +
                                           std::to_string(n_heads));
  return std::nullopt;
}

std::variant<std::unique_ptr<Trainer>, InputError> Trainer::create(const TrainerOptions& options) {
  if (auto error = validate_model_shape(options.d_model, options.n_heads)) return *error;
  if (auto error = validate_adam_settings(options.adam)) return *error;
  auto corpus = build_corpus(options.corpus ? *options.corpus : default_corpus_text());
  if (auto* error = std::get_if<InputError>(&corpus)) return *error;

  std::unique_ptr<Trainer> trainer(new Trainer());
  trainer->corpus_ = std::move(std::get<Corpus>(corpus));
  trainer->shape_ = ModelShape{trainer->corpus_.vocabulary.size(), options.d_model,
                               options.n_heads, CorpusLimits::max_sentence_words};
  trainer->seed_ = options.seed;
  trainer->baselines_ = corpus_baselines(trainer->corpus_.train, trainer->shape_.vocabulary);
  trainer->parameters_ = seeded_parameters(trainer->shape_, options.seed);
  trainer->gradients_ = zero_parameters(trainer->shape_);
  trainer->adam_ = options.adam;
  trainer->adam_state_ = zero_adam_state(trainer->shape_);
  trainer->activations_.resize(trainer->corpus_.train.size());
  trainer->training_loss_ = trainer->forward_training_set();
  return trainer;
}

double Trainer::forward_training_set() {
  double loss_sum = 0.0;
  for (std::size_t s = 0; s < corpus_.train.size(); ++s)
    loss_sum += forward_sentence(parameters_, shape_, corpus_.train[s], activations_[s]);
  return loss_sum / static_cast<double>(predicted_word_count(corpus_.train));
}

std::unique_ptr<Trainer> Trainer::fork() const {
  std::unique_ptr<Trainer> copy(new Trainer());
  copy->shape_ = shape_;
  copy->seed_ = seed_;
  copy->corpus_ = corpus_;
  copy->baselines_ = baselines_;
  copy->parameters_ = parameters_;
  copy->gradients_ = zero_parameters(shape_);
  copy->adam_ = adam_;
  copy->adam_state_ = adam_state_;
  copy->training_loss_ = training_loss_;
  return copy;
}

StepReport Trainer::step(std::size_t count) {
  if (activations_.size() != corpus_.train.size()) {
    // A fork's first step: the forward pass of the parameters held, as the original last ran it.
    activations_.resize(corpus_.train.size());
    training_loss_ = forward_training_set();
  }
  const float loss_scale = 1.0f / static_cast<float>(predicted_word_count(corpus_.train));
  for (std::size_t n = 0; n < count; ++n) {
    // The activations always belong to the parameters held, whose loss is finite.
    const Parameters last_good = parameters_;
    const AdamState last_good_state = adam_state_;
    fill_zero(gradients_);
    for (std::size_t s = 0; s < corpus_.train.size(); ++s)
      backward_sentence(parameters_, shape_, corpus_.train[s], activations_[s], loss_scale, gradients_);
    adam_step(parameters_, gradients_, adam_, adam_state_);
    const bool within = parameters_within_limit(parameters_);
    const double loss = within ? forward_training_set() : 0.0;
    if (!within || !std::isfinite(loss)) {
      const std::size_t failed_step = adam_state_.steps;
      parameters_ = last_good;
      adam_state_ = last_good_state;
      training_loss_ = forward_training_set();
      return StepReport{adam_state_.steps, training_loss_,
                        "step " + std::to_string(failed_step) + " diverged (" +
                            divergence_text(within ? loss : 0.0) + "); kept the parameters of step " +
                            std::to_string(adam_state_.steps) + "; try a smaller learning_rate"};
    }
    training_loss_ = loss;
  }
  return StepReport{adam_state_.steps, training_loss_, std::nullopt};
}

std::optional<double> Trainer::held_out_loss() const {
  if (corpus_.held_out.empty()) return std::nullopt;
  SentenceActivations scratch;
  double loss_sum = 0.0;
  for (const Sentence& sentence : corpus_.held_out)
    loss_sum += forward_sentence(parameters_, shape_, sentence, scratch);
  return loss_sum / static_cast<double>(predicted_word_count(corpus_.held_out));
}

std::optional<InputError> Trainer::set_adam(const AdamSettings& settings) {
  if (auto error = validate_adam_settings(settings)) return error;
  adam_ = settings;
  return std::nullopt;
}

std::variant<AttendResult, InputError> Trainer::attend(const std::vector<std::string>& words) const {
  if (words.empty()) return make_input_error("tokens", "is empty; give at least one word");
  if (words.size() > shape_.positions)
    return make_input_error("tokens", "has " + std::to_string(words.size()) +
                                          " words; the limit is " + std::to_string(shape_.positions) +
                                          " (the rows of the position table)");
  auto encoded = encode_words(words, corpus_.vocabulary, "tokens");
  if (auto* error = std::get_if<InputError>(&encoded)) return *error;
  const Sentence& sentence = std::get<Sentence>(encoded);

  // The forward pass gives x, the residual and the probabilities; the multi-head layer of part
  // one, on the same x and weights, gives every head's trace (the same numbers bit for bit).
  SentenceActivations activations;
  forward_sentence(parameters_, shape_, sentence, activations);
  MultiHeadInput input;
  input.tokens = words;
  input.n_heads = shape_.n_heads;
  input.x = activations.x;
  input.w_q = parameters_.w_q;
  input.w_k = parameters_.w_k;
  input.w_v = parameters_.w_v;
  input.w_o = parameters_.w_o;
  if (auto error = validate_multi_head_input(input))
    return make_input_error("parameters", "are outside what part one's layer accepts (" +
                                              error->message + ")");
  return AttendResult{compute_multi_head(input), activations.residual, activations.probabilities};
}

}  // namespace attn::training
