#include "attention/training/adam.h"

#include <cmath>
#include <string>

#include "attention/json/json.h"

namespace attn::training {

namespace {

std::string number_text(double value) {
  std::string text;
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
  json::write_number(text, value);
  return text;
}

}  // namespace

std::optional<InputError> validate_adam_settings(const AdamSettings& settings) {
  if (!std::isfinite(settings.learning_rate) || settings.learning_rate <= 0.0)
    return make_input_error("learning_rate", "must be a positive finite number, got " +
                                                 number_text(settings.learning_rate));
  if (settings.learning_rate > AdamLimits::max_learning_rate)
    return make_input_error("learning_rate", "is " + number_text(settings.learning_rate) +
                                                 "; the limit is 1e6");
  const auto check_beta = [](const char* name, double beta) -> std::optional<InputError> {
    if (!std::isfinite(beta) || beta < 0.0 || beta >= 1.0)
      return make_input_error(name, "must be a number from 0 up to (not including) 1, got " +
                                        number_text(beta));
    return std::nullopt;
  };
  if (auto error = check_beta("beta1", settings.beta1)) return error;
  if (auto error = check_beta("beta2", settings.beta2)) return error;
  if (!std::isfinite(settings.epsilon) || settings.epsilon <= 0.0 ||
      settings.epsilon > AdamLimits::max_epsilon)
    return make_input_error("epsilon", "must be a number above 0 and at most 1, got " +
                                           number_text(settings.epsilon));
  return std::nullopt;
}

AdamState zero_adam_state(const ModelShape& shape) {
  return AdamState{zero_parameters(shape), zero_parameters(shape), 0, 1.0, 1.0};
}

void adam_step(Parameters& parameters, const Parameters& gradients, const AdamSettings& settings,
               AdamState& state) {
  state.steps += 1;
  state.beta1_power *= settings.beta1;
  state.beta2_power *= settings.beta2;
  const float beta1 = static_cast<float>(settings.beta1);
  const float beta2 = static_cast<float>(settings.beta2);
  const float learning_rate = static_cast<float>(settings.learning_rate);
  const float epsilon = static_cast<float>(settings.epsilon);
  // The bias corrections 1 / (1 − β^t), which undo the moments' start at zero.
  const float first_correction = static_cast<float>(1.0 / (1.0 - state.beta1_power));
  const float second_correction = static_cast<float>(1.0 / (1.0 - state.beta2_power));

  // The four structures have the same tables in the same order: walk them side by side.
  std::vector<float*> parameter_tables, first_tables, second_tables;
  std::vector<const float*> gradient_tables;
  std::vector<std::size_t> counts;
  for_each_table(parameters, [&](float* values, std::size_t count) {
    parameter_tables.push_back(values);
    counts.push_back(count);
  });
  for_each_table(gradients, [&](const float* values, std::size_t) { gradient_tables.push_back(values); });
  for_each_table(state.first_moment, [&](float* values, std::size_t) { first_tables.push_back(values); });
  for_each_table(state.second_moment, [&](float* values, std::size_t) { second_tables.push_back(values); });

  for (std::size_t table = 0; table < counts.size(); ++table) {
    float* theta = parameter_tables[table];
    const float* g = gradient_tables[table];
    float* m = first_tables[table];
    float* v = second_tables[table];
    for (std::size_t n = 0; n < counts[table]; ++n) {
      m[n] = beta1 * m[n] + (1.0f - beta1) * g[n];
      v[n] = beta2 * v[n] + (1.0f - beta2) * (g[n] * g[n]);
      const float m_hat = m[n] * first_correction;
      const float v_hat = v[n] * second_correction;
      theta[n] -= learning_rate * m_hat / (std::sqrt(v_hat) + epsilon);
    }
  }
}

}  // namespace attn::training
