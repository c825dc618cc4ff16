// The head_dim study's JSON request and answer (explore_json.h): the request read member by
// member with a message naming the member at fault; the arithmetic lives in head_dim_study.cpp.
#include <string>
#include <string_view>

#include "attention/json/explore_json.h"
#include "attention/json/json.h"
#include "attention/json/json_io.h"
#include "attention/layers/head_dim_study.h"
#include "json/json_request.h"

namespace attn {

namespace {

using json::Value;
using Type = Value::Type;
using namespace json_request;

// "key":value, the value to 9 significant digits as json::write_number writes it.
void write_figure_member(std::string& out, std::string_view key, double value) {
  write_key(out, key);
  json::write_number(out, value);
}

void write_figures(std::string& out, const SoftmaxSpreadFigures& figures) {
  out += '{';
  write_key(out, "largest_weight"); write_numbers(out, figures.largest_weight);
  write_key(out, "entropy"); write_numbers(out, figures.entropy);
  write_key(out, "jacobian_norm"); write_numbers(out, figures.jacobian_norm);
  write_figure_member(out, "mean_largest_weight", figures.mean_largest_weight);
  write_figure_member(out, "mean_entropy", figures.mean_entropy);
  write_figure_member(out, "mean_jacobian_norm", figures.mean_jacobian_norm);
  write_figure_member(out, "gradient_norm", figures.gradient_norm);
  write_figure_member(out, "mean_largest_weight_standard_error",
                      figures.mean_largest_weight_standard_error);
  write_figure_member(out, "mean_entropy_standard_error", figures.mean_entropy_standard_error);
  write_figure_member(out, "mean_jacobian_norm_standard_error",
                      figures.mean_jacobian_norm_standard_error);
  write_figure_member(out, "gradient_norm_standard_error", figures.gradient_norm_standard_error);
  out += '}';
}

}  // namespace

std::string head_dim_study_to_json(const HeadDimStudy& study) {
  const HeadDimStudyOptions& options = study.options;
  std::string out = "{";
  write_key(out, "head_dims"); write_numbers(out, options.head_dims);
  write_figure_member(out, "tokens", static_cast<double>(options.token_count));
  write_figure_member(out, "samples", static_cast<double>(options.samples));
  write_key(out, "seed"); write_shortest(out, static_cast<double>(options.seed));
  write_text(out, "scale", scale_name(options.scale));
  write_text(out, "mask", mask_name(options.mask));
  write_key(out, "max_entropy"); write_numbers(out, study.max_entropy);
  write_key(out, "points");
  write_objects(out, study.points, [&](const HeadDimPoint& point) {
    write_figure_member(out, "head_dim", static_cast<double>(point.head_dim));
    write_figure_member(out, "scale_divisor", point.scale_divisor);
    write_figure_member(out, "raw_score_spread", point.raw_score_spread);
    write_figure_member(out, "scaled_score_spread", point.scaled_score_spread);
    write_figure_member(out, "raw_score_spread_standard_error",
                        point.raw_score_spread_standard_error);
    write_figure_member(out, "scaled_score_spread_standard_error",
                        point.scaled_score_spread_standard_error);
    write_key(out, "unscaled"); write_figures(out, point.unscaled);
    write_key(out, "scaled"); write_figures(out, point.scaled);
  });
  const HeadDimComparison& comparison = study.comparison;
  write_key(out, "comparison");
  out += '{';
  write_figure_member(out, "from_head_dim", static_cast<double>(comparison.from_head_dim));
  write_figure_member(out, "to_head_dim", static_cast<double>(comparison.to_head_dim));
  write_figure_member(out, "raw_spread_ratio", comparison.raw_spread_ratio);
  write_figure_member(out, "scaled_spread_ratio", comparison.scaled_spread_ratio);
  write_figure_member(out, "expected_raw_spread_ratio", comparison.expected_raw_spread_ratio);
  write_figure_member(out, "raw_spread_ratio_standard_error",
                      comparison.raw_spread_ratio_standard_error);
  write_figure_member(out, "scaled_spread_ratio_standard_error",
                      comparison.scaled_spread_ratio_standard_error);
  out += "}}";
  return out;
}

JsonOrError head_dim_study_json(std::string_view request) {
  auto parsed = parse_request(
      request, {"head_dims", "tokens", "samples", "seed", "scale", "mask", "compare"}, members_plainly);
  if (auto* error = std::get_if<InputError>(&parsed)) return *error;
  const Value& root = std::get<Value>(parsed);
  HeadDimStudyOptions options;

  if (const Value* head_dims = root.find("head_dims")) {
    if (auto error = check_list(*head_dims, "head_dims", "whole numbers",
                                HeadDimStudyLimits::max_head_dim_count))
      return *error;
    options.head_dims.clear();
    for (std::size_t n = 0; n < head_dims->array.size(); ++n) {
      double head_dim = 0.0;
      if (auto error = read_whole_value(head_dims->array[n], index_path("head_dims", n), 1.0,
                                        static_cast<double>(Limits::max_head_dim), head_dim))
        return *error;
      options.head_dims.push_back(static_cast<std::size_t>(head_dim));
    }
  }
  if (auto error = read_count(root, "tokens", 1, Limits::max_tokens, options.token_count)) return *error;
  if (auto error = read_count(root, "samples", 1, HeadDimStudyLimits::max_samples, options.samples))
    return *error;
  if (auto error = read_seed(root, options.seed)) return *error;
  if (auto error = read_scale(root, options.scale)) return *error;
  MaskVariant mask{options.mask, MaskFill::minus_infinity};
  if (auto error = read_mask(root, {"none", "causal"}, mask)) return *error;
  options.mask = mask.mask;
  if (const Value* compare = root.find("compare")) {
    const bool pair = compare->type == Type::array && compare->array.size() == 2;
    if (!pair) return make_input_error("compare", "must be two head_dims, [from, to], " + got(*compare));
    double from = 0.0, to = 0.0;
    const double largest = static_cast<double>(Limits::max_head_dim);
    if (auto error = read_whole_value(compare->array[0], "compare[0]", 1.0, largest, from)) return *error;
    if (auto error = read_whole_value(compare->array[1], "compare[1]", 1.0, largest, to)) return *error;
    options.compare_from = static_cast<std::size_t>(from);
    options.compare_to = static_cast<std::size_t>(to);
  }

  if (auto error = validate_head_dim_study(options)) return *error;
  return head_dim_study_to_json(run_head_dim_study(options));
}

}  // namespace attn
