// Fuzz target: the explorable's JSON requests (explore_json.h): softmax backward, the head_dim
// study, the multi-head layer and seeded random tables. The first byte picks the request, the
// rest is its JSON text.
//   - No crash, leak or undefined behaviour on any bytes.
//   - A refusal is one line that starts with the JSON path at fault and ": ".
//   - An answer is valid JSON; softmax backward and random tables hold no null and no
//     tagged non-finite number, a gradient is exactly 0 where its weight is 0, and random values lie in
//     [min, max]; the head_dim study holds a tagged non-finite number only over one sample (its
//     standard errors, which one sample does not give).
// The head_dim study and the multi-head layer may legitimately take a good part of a second at
// their limits; requests whose work is beyond a small budget are read by the JSON reader here
// but not computed, so the fuzzer spends its time on the request readers, which are the same
// code at any size.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "attention/json/explore_json.h"
#include "attention/json/json.h"
#include "fuzz_json_exchange.h"
#include "fuzz_support.h"

namespace {

using attn::json::Value;
using Type = Value::Type;

// The member `key` as a number when it is one, else `otherwise` (absent: the default; another
// type: the request is refused before any work, so it costs nothing).
double number_or(const Value& root, std::string_view key, double otherwise) {
  const Value* member = root.find(key);
  if (!member) return otherwise;
  if (member->type != Type::number || !std::isfinite(member->number)) return 1.0;
  return std::fabs(member->number);
}

bool too_much_work(int which, const Value& root) {
  constexpr double budget = 4e5;  // multiplications
  if (which == 1) {  // head_dim study: samples · T² · Σ head_dims · 2
    double head_dim_total = 255.0;  // the default list 1, 2, 4, ..., 128
    if (const Value* list = root.find("head_dims"); list && list->type == Type::array) {
      head_dim_total = 0.0;
      for (const Value& entry : list->array)
        head_dim_total += entry.type == Type::number && std::isfinite(entry.number)
                              ? std::min(std::fabs(entry.number), 256.0)
                              : 1.0;
    }
    const double T = std::min(number_or(root, "tokens", 8.0), 64.0);
    const double samples = std::min(number_or(root, "samples", 256.0), 1024.0);
    return samples * T * T * head_dim_total * 2.0 > budget;
  }
  if (which == 2) {  // multi-head layer: projections T · d_model² · 4, heads T² · d_model
    double T = 1.0;
    if (const Value* tokens = root.find("tokens"); tokens && tokens->type == Type::array)
      T = static_cast<double>(std::min<std::size_t>(tokens->array.size(), 64));
    double d_model = number_or(root, "d_model", 16.0);
    if (const Value* x = root.find("x"); x && !root.find("d_model") && x->type == Type::array &&
                                         !x->array.empty() && x->array[0].type == Type::array)
      d_model = static_cast<double>(x->array[0].array.size());
    d_model = std::min(d_model, 256.0);
    return T * d_model * d_model * 4.0 + T * T * d_model > budget;
  }
  if (which == 3)  // random table: shortest decimal text of every value
    return std::min(number_or(root, "rows", 0.0), 65536.0) *
               std::min(number_or(root, "cols", 0.0), 65536.0) > 4096.0;
  return false;
}

// Rows of numbers as float (the precision the core computes in); a lone row is one row.
std::vector<std::vector<double>> rows_of(const Value& value) {
  std::vector<std::vector<double>> rows;
  const bool one_row = value.array.empty() || value.array[0].type != Type::array;
  if (one_row) {
    rows.emplace_back();
    for (const Value& cell : value.array) rows.back().push_back(cell.number);
  } else {
    for (const Value& row : value.array) {
      rows.emplace_back();
      for (const Value& cell : row.array) rows.back().push_back(cell.number);
    }
  }
  return rows;
}

void check_softmax_backward(const Value& request, const Value& answer) {
  const Value* gradient = answer.find("gradient");
  FUZZ_CHECK(gradient && gradient->type == Type::array, "gradient");
  FUZZ_CHECK(answer.find("upstream_dot_weights"), "upstream_dot_weights");
  const auto weights = rows_of(*request.find("weights"));
  const auto gradients = rows_of(*gradient);
  FUZZ_CHECK(weights.size() == gradients.size(), "gradient rows");
  for (std::size_t r = 0; r < weights.size(); ++r) {
    FUZZ_CHECK(weights[r].size() == gradients[r].size(), "gradient row length");
    for (std::size_t j = 0; j < weights[r].size(); ++j)
      if (static_cast<float>(weights[r][j]) == 0.0f)
        FUZZ_CHECK(gradients[r][j] == 0.0, "gradient" + attn_fuzz::at(r, j) + " = " +
                                               attn_fuzz::num(gradients[r][j]) + " for weight 0");
  }
}

void check_random_matrix(const Value& request, const Value& answer) {
  const double low = request.find("min") ? request.find("min")->number : -1.0;
  const double high = request.find("max") ? request.find("max")->number : 1.0;
  FUZZ_CHECK(answer.type == Type::array, "rows");
  for (const Value& row : answer.array) {
    FUZZ_CHECK(row.type == Type::array, "row");
    for (const Value& cell : row.array)
      FUZZ_CHECK(cell.type == Type::number && cell.number >= low && cell.number <= high,
                 attn_fuzz::num(cell.number) + " outside [" + attn_fuzz::num(low) + ", " +
                     attn_fuzz::num(high) + "]");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static constexpr attn_fuzz::JsonEntryPoint entry_points[] = {
      attn::softmax_backward_json, attn::head_dim_study_json, attn::multi_head_json,
      attn::random_matrix_json};
  const auto exchange = attn_fuzz::exchange_json(data, size, entry_points, too_much_work);
  if (!exchange) return 0;
  const std::size_t which = exchange->which;
  if (which == 0 || which == 3)
    FUZZ_CHECK(exchange->answer_text.find("null") == std::string::npos &&
                   exchange->answer_text.find("non_finite") == std::string::npos,
               exchange->answer_text.substr(0, 200));
  if (which == 1 && exchange->answer_text.find("non_finite") != std::string::npos) {
    const Value* samples = exchange->answer.find("samples");
    FUZZ_CHECK(samples && samples->type == Type::number && samples->number == 1.0,
               "a non-finite figure over more than one sample: " + exchange->answer_text.substr(0, 200));
  }
  if (which == 0) check_softmax_backward(exchange->request, exchange->answer);
  if (which == 3) check_random_matrix(exchange->request, exchange->answer);
  return 0;
}
