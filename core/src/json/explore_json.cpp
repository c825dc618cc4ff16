// JSON requests and answers of the explorable's computations. Every request is read member by
// member with a message naming the member (and row and column) at fault; the arithmetic lives
// in softmax_backward.cpp, multi_head.cpp and seeded_random.cpp (the head_dim study's request and
// answer: head_dim_study_json.cpp).
#include "attention/json/explore_json.h"

#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "attention/json/json.h"
#include "attention/json/json_io.h"
#include "attention/reference/seeded_random.h"
#include "attention/reference/vocabulary.h"
#include "attention/reference/softmax_backward.h"
#include "json/json_request.h"
#include "layers/layer_tables.h"

namespace attn {

namespace {

using json::Value;
using Type = Value::Type;
using namespace json_request;

// ---- reading a request ---------------------------------------------------------------------

std::optional<InputError> read_finite_number(const Value& root, std::string_view key, double& out) {
  const Value* member = root.find(key);
  if (!member) return std::nullopt;
  if (member->type != Type::number || !std::isfinite(member->number))
    return make_input_error(std::string(key), "must be a finite number, " + got(*member));
  out = member->number;
  return std::nullopt;
}

// A number checked by `check` (which returns the reason it is refused, or an empty string).
using NumberCheck = std::string (*)(double value);

std::string finite_within_limit(double value) {
  if (!std::isfinite(value)) return "must be a finite number";
  if (std::fabs(value) > Limits::max_abs_value) return out_of_range(value, Limits::max_abs_value);
  return {};
}

std::string a_weight(double value) {
  if (!std::isfinite(value) || value < 0.0 || value > 1.0)
    return "must be a softmax weight, a number from 0 to 1";
  return {};
}

std::optional<InputError> read_number(const Value& cell, const std::string& path, NumberCheck check,
                                      double& out) {
  if (cell.type != Type::number) return make_input_error(path, "must be a finite number, " + got(cell));
  if (const std::string reason = check(cell.number); !reason.empty())
    return make_input_error(path, reason);
  out = cell.number;
  return std::nullopt;
}

// A row of 1 to max_length numbers, or exactly `length` when it is not 0.
std::optional<InputError> read_row(const Value& row, const std::string& path, std::size_t length,
                                   std::size_t max_length, NumberCheck check,
                                   std::vector<double>& out, const char* length_meaning = "") {
  if (row.type != Type::array) return make_input_error(path, "must be an array of numbers, " + got(row));
  if (row.array.empty()) return make_input_error(path, "is empty");
  if (length == 0 && row.array.size() > max_length)
    return make_input_error(path, "has " + std::to_string(row.array.size()) +
                                      " values; the limit is " + std::to_string(max_length));
  if (length != 0 && row.array.size() != length)
    return make_input_error(path, "has " + counted(row.array.size(), "value", "values") + "; expected " +
                                      std::to_string(length) + length_meaning);
  out.assign(row.array.size(), 0.0);
  for (std::size_t c = 0; c < row.array.size(); ++c)
    if (auto error = read_number(row.array[c], index_path(path, c), check, out[c])) return error;
  return std::nullopt;
}

// ---- softmax backward ----------------------------------------------------------------------

// A row of softmax weights: each from 0 to 1, adding up to 1 within 1e-3 (rounded weights such
// as 0.28 and 0.72 are accepted; a row that is not a softmax row at all is not).
std::optional<InputError> check_weight_sum(const std::vector<double>& weights, const std::string& path) {
  double sum = 0.0;
  for (const double p : weights) sum += p;
  if (std::fabs(sum - 1.0) > 1e-3) {
    std::string text = "adds up to ";
    json::write_number(text, sum);
    return make_input_error(path, text + " but a row of softmax weights adds up to 1");
  }
  return std::nullopt;
}

}  // namespace

JsonOrError softmax_backward_json(std::string_view request) {
  auto parsed = parse_request(request, {"weights", "upstream"}, members_plainly);
  if (auto* error = std::get_if<InputError>(&parsed)) return *error;
  const Value& root = std::get<Value>(parsed);
  const Value* weights = root.find("weights");
  const Value* upstream = root.find("upstream");
  if (!weights) return make_input_error("weights", "is missing (expected a row of softmax weights, or rows of them)");
  if (!upstream) return make_input_error("upstream", "is missing (expected dL/dweights, the shape of weights)");
  if (weights->type != Type::array || weights->array.empty())
    return make_input_error("weights", "must be a non-empty array of weights, or of rows of weights, " + got(*weights));

  // One row, or a matrix of rows: the answer has the shape of the question.
  const bool one_row = weights->array[0].type != Type::array;
  std::vector<const Value*> weight_rows, upstream_rows;  // [R]
  std::vector<std::string> weight_paths, upstream_paths;
  if (one_row) {
    weight_rows = {weights};
    upstream_rows = {upstream};
    weight_paths = {"weights"};
    upstream_paths = {"upstream"};
  } else {
    if (weights->array.size() > Limits::max_tokens)
      return make_input_error("weights", "has " + std::to_string(weights->array.size()) +
                                             " rows; the limit is " + std::to_string(Limits::max_tokens));
    if (upstream->type != Type::array)
      return make_input_error("upstream", "must be an array of rows like weights, " + got(*upstream));
    if (upstream->array.size() != weights->array.size())
      return make_input_error("upstream", "has " + counted(upstream->array.size(), "row", "rows") +
                                              " but weights has " +
                                              std::to_string(weights->array.size()));
    for (std::size_t r = 0; r < weights->array.size(); ++r) {
      weight_rows.push_back(&weights->array[r]);
      upstream_rows.push_back(&upstream->array[r]);
      weight_paths.push_back(index_path("weights", r));
      upstream_paths.push_back(index_path("upstream", r));
    }
  }

  std::vector<std::vector<float>> gradients;  // [R][n]
  std::vector<float> dots;                    // [R] g·p of each row
  for (std::size_t r = 0; r < weight_rows.size(); ++r) {
    std::vector<double> p, g;
    if (auto error = read_row(*weight_rows[r], weight_paths[r], 0, Limits::max_tokens, a_weight, p))
      return *error;
    if (auto error = check_weight_sum(p, weight_paths[r])) return *error;
    if (auto error = read_row(*upstream_rows[r], upstream_paths[r], p.size(), p.size(),
                              finite_within_limit, g, " (one per weight)"))
      return *error;
    const std::vector<float> weights_row(p.begin(), p.end());  // [n]
    const std::vector<float> upstream_row(g.begin(), g.end());  // [n]
    std::vector<float> gradient(p.size());                      // [n]
    dots.push_back(softmax_backward_row(gradient.data(), weights_row.data(), upstream_row.data(),
                                        p.size()));
    gradients.push_back(std::move(gradient));
  }

  std::string out = "{";
  write_key(out, "gradient");
  if (one_row) {
    write_numbers(out, gradients[0]);
  } else {
    out += '[';
    for (std::size_t r = 0; r < gradients.size(); ++r) {
      if (r) out += ',';
      write_numbers(out, gradients[r]);
    }
    out += ']';
  }
  write_key(out, "upstream_dot_weights");
  if (one_row) json::write_number(out, dots[0]);
  else write_numbers(out, dots);
  out += '}';
  return out;
}

// ---- multi-head layer ----------------------------------------------------------------------

std::string multi_head_to_json(const MultiHeadLayer& layer) {
  std::string out = "{";
  write_key(out, "tokens"); write_strings(out, layer.tokens);
  write_key(out, "d_model"); json::write_number(out, static_cast<double>(layer.d_model));
  write_key(out, "n_heads"); json::write_number(out, static_cast<double>(layer.n_heads));
  write_key(out, "head_dim"); json::write_number(out, static_cast<double>(layer.head_dim));
  const Trace* first = layer.heads.empty() ? nullptr : &layer.heads[0].trace;
  write_key(out, "mask");
  json::write_string(out, first ? mask_variant_name(first->mask, first->mask_fill) : "causal");
  write_key(out, "scale"); json::write_string(out, first ? scale_name(first->scale) : "sqrt_d");
  write_key(out, "x"); write_matrix(out, layer.x);
  write_key(out, "heads");
  write_objects(out, layer.heads, [&](const HeadOfLayer& head) {
    write_key(out, "w_q"); write_matrix(out, head.w_q);
    write_key(out, "w_k"); write_matrix(out, head.w_k);
    write_key(out, "w_v"); write_matrix(out, head.w_v);
    write_key(out, "trace"); out += trace_to_json(head.trace);
  });
  write_key(out, "concat"); write_matrix(out, layer.concat);
  write_key(out, "w_o"); write_matrix(out, layer.w_o);
  write_key(out, "out"); write_matrix(out, layer.out);
  out += '}';
  return out;
}

JsonOrError multi_head_json(std::string_view request) {
  auto parsed = parse_request(request, {"tokens", "d_model", "n_heads", "seed", "x", "mask", "scale"},
                              members_plainly);
  if (auto* error = std::get_if<InputError>(&parsed)) return *error;
  const Value& root = std::get<Value>(parsed);

  // Tokens and sizes first: they bound everything seeded below.
  std::vector<std::string> tokens;
  if (!root.find("tokens")) return make_input_error("tokens", "is missing (expected an array of words)");
  // The tokens' text is checked with the layer (validate_multi_head_input).
  if (auto error = read_tokens(root, tokens, TokenText::unchecked)) return *error;

  std::size_t d_model = LayerDefaults::d_model;
  std::size_t n_heads = LayerDefaults::n_heads;
  std::uint64_t seed = LayerDefaults::seed;
  const Value* x = root.find("x");
  const bool d_model_given = root.find("d_model") != nullptr;
  if (auto error = read_count(root, "d_model", 1, MultiHeadLimits::max_d_model, d_model)) return *error;
  if (x && !d_model_given && x->type == Type::array && !x->array.empty() &&
      x->array[0].type == Type::array && !x->array[0].array.empty()) {
    // The token vectors say how wide they are.
    d_model = x->array[0].array.size();
    if (d_model > MultiHeadLimits::max_d_model)
      return make_input_error("x[0]", "has " + std::to_string(d_model) +
                                          " values; the d_model limit is " +
                                          std::to_string(MultiHeadLimits::max_d_model));
  }
  const std::size_t T = tokens.size();
  if (x && x->type != Type::array)
    return make_input_error("x", "must be an array of rows, one per token, " + got(*x));
  if (x && x->array.size() != T)
    return rows_per_token_error("x", x->array.size(), T);
  if (auto error = read_count(root, "n_heads", 1, MultiHeadLimits::max_d_model, n_heads)) return *error;
  if (auto error = layer_tables::check_head_split(d_model, n_heads)) return *error;
  if (auto error = read_seed(root, seed)) return *error;
  MaskVariant mask;
  if (auto error = read_mask(root, mask)) return *error;
  ScaleKind scale = ScaleKind::sqrt_head_dim;
  if (auto error = read_scale(root, scale)) return *error;

  MultiHeadInput input = seeded_multi_head_input(std::move(tokens), d_model, n_heads, seed);
  input.mask = mask.mask;
  input.mask_fill = mask.fill;
  input.scale = scale;

  if (x) {
    const auto within_limit = [](double value) -> std::string {
      if (!std::isfinite(value)) return "must be a finite number";
      if (std::fabs(value) > MultiHeadLimits::max_abs_value)
        return out_of_range(value, MultiHeadLimits::max_abs_value);
      return {};
    };
    for (std::size_t t = 0; t < T; ++t) {
      std::vector<double> row;
      if (auto error = read_row(x->array[t], index_path("x", t), d_model, d_model, within_limit,
                                row, " (d_model)"))
        return *error;
      for (std::size_t c = 0; c < d_model; ++c) input.x.at(t, c) = static_cast<float>(row[c]);
    }
  }

  if (auto error = validate_multi_head_input(input)) return *error;
  return multi_head_to_json(compute_multi_head(input));
}

// ---- seeded random tables ------------------------------------------------------------------

JsonOrError random_matrix_json(std::string_view request) {
  auto parsed = parse_request(request, {"rows", "cols", "seed", "min", "max", "decimals"}, members_plainly);
  if (auto* error = std::get_if<InputError>(&parsed)) return *error;
  const Value& root = std::get<Value>(parsed);
  const std::size_t max_values = RandomGridLimits::max_values;
  if (!root.find("rows")) return make_input_error("rows", "is missing (expected a whole number)");
  if (!root.find("cols")) return make_input_error("cols", "is missing (expected a whole number)");
  std::size_t rows = 0, cols = 0;
  if (auto error = read_count(root, "rows", 1, max_values, rows)) return *error;
  if (auto error = read_count(root, "cols", 1, max_values, cols)) return *error;
  if (rows * cols > max_values)
    return make_input_error("cols", std::to_string(rows) + " rows of " + std::to_string(cols) +
                                        " values are more than the limit of " +
                                        std::to_string(max_values) + " values");
  std::uint64_t seed = 1;
  if (auto error = read_seed(root, seed)) return *error;
  UniformGrid grid;
  if (auto error = read_finite_number(root, "min", grid.min)) return *error;
  if (auto error = read_finite_number(root, "max", grid.max)) return *error;
  std::size_t decimals = static_cast<std::size_t>(grid.decimals);
  if (auto error = read_count(root, "decimals", 0, RandomGridLimits::max_decimals, decimals))
    return *error;
  grid.decimals = static_cast<int>(decimals);
  if (auto error = validate_uniform_grid(grid)) return *error;

  const std::vector<double> values = random_grid_values(seed, rows, cols, grid);  // [rows][cols]
  std::string out = "[";
  for (std::size_t r = 0; r < rows; ++r) {
    out += r ? ",[" : "[";
    for (std::size_t c = 0; c < cols; ++c) {
      if (c) out += ',';
      write_shortest(out, values[r * cols + c]);
    }
    out += ']';
  }
  out += ']';
  return out;
}

}  // namespace attn
