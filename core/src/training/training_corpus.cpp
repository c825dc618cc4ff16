// The default corpus, reading a corpus given as text, and the counting baselines.
#include "attention/training/training_corpus.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <set>
#include <string_view>
#include <utility>

#include "attention/json/json.h"
#include "attention/reference/seeded_random.h"

namespace attn::training {

namespace {

// The default corpus's words by role. Each animal's sound sits at the same index as the animal.
constexpr std::array<const char*, 2> determiners = {"the", "a"};
constexpr std::array<const char*, 3> adjectives = {"big", "old", "small"};
constexpr std::array<const char*, 8> animals = {"cat", "dog", "bird", "cow",
                                                "duck", "lion", "frog", "sheep"};
constexpr std::array<const char*, 8> sounds = {"purrs", "barks", "sings", "moos",
                                               "quacks", "roars", "croaks", "bleats"};
constexpr std::array<const char*, 5> past_verbs = {"sat", "slept", "stood", "waited", "hid"};
constexpr std::array<const char*, 4> prepositions = {"on", "by", "near", "under"};
constexpr std::array<const char*, 7> places = {"mat", "door", "tree", "barn", "wall", "rug", "gate"};

// The corpus is the same whatever the model's seed: its own fixed seed.
constexpr std::uint64_t corpus_seed = 20240601;

template <std::size_t N>
const char* pick(SeededRandom& random, const std::array<const char*, N>& words) {
  return words[random.next_u64() % N];
}

// One draw per statement, in order: the operands of one expression may be evaluated in any order,
// which would give each compiler its own corpus.
std::string draw_sentence(SeededRandom& random) {
  const char* determiner = pick(random, determiners);
  // One draw in four has no adjective.
  const std::uint64_t adjective = random.next_u64() % (adjectives.size() + 1);
  const std::uint64_t animal = random.next_u64() % animals.size();
  const char* past_verb = pick(random, past_verbs);
  const char* preposition = pick(random, prepositions);
  // One place in two has an adjective too, so the animal is six or seven words back.
  const std::uint64_t place_adjective = random.next_u64() % (2 * adjectives.size());
  const char* place = pick(random, places);

  std::string sentence = determiner;
  if (adjective < adjectives.size()) sentence = sentence + ' ' + adjectives[adjective];
  sentence = sentence + ' ' + animals[animal] + " that " + past_verb + ' ' + preposition + " the";
  if (place_adjective < adjectives.size()) sentence = sentence + ' ' + adjectives[place_adjective];
  return sentence + ' ' + place + ' ' + sounds[animal];
}

std::vector<std::string> split_words(std::string_view sentence) {
  std::vector<std::string> words;
  std::size_t start = 0;
  while (true) {
    const std::size_t space = sentence.find(' ', start);
    words.emplace_back(sentence.substr(start, space == std::string_view::npos ? space : space - start));
    if (space == std::string_view::npos) return words;
    start = space + 1;
  }
}

std::optional<InputError> check_sentence(const std::vector<std::string>& words,
                                         const std::string& path) {
  if (words.size() == 1 && words[0].empty()) return make_input_error(path, "is empty");
  for (std::size_t n = 0; n < words.size(); ++n) {
    const std::string& word = words[n];
    if (word.empty())
      return make_input_error(path, "word " + std::to_string(n) +
                                        " is empty (words are separated by single spaces)");
    if (word.size() > CorpusLimits::max_word_bytes)
      return make_input_error(path, "word " + std::to_string(n) + " has " +
                                        std::to_string(word.size()) + " bytes; the limit is " +
                                        std::to_string(CorpusLimits::max_word_bytes));
    for (const char c : word)
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
        return make_input_error(path, "word " + std::to_string(n) + " holds a control character");
  }
  if (words.size() < 2)
    return make_input_error(path, "has 1 word; a sentence needs at least 2 (a word and the next word to predict)");
  if (words.size() > CorpusLimits::max_sentence_words)
    return make_input_error(path, "has " + std::to_string(words.size()) + " words; the limit is " +
                                      std::to_string(CorpusLimits::max_sentence_words));
  return std::nullopt;
}

std::optional<InputError> split_all(const std::vector<std::string>& sentences,
                                    const std::string& name,
                                    std::vector<std::vector<std::string>>& out) {
  if (sentences.size() > CorpusLimits::max_sentences)
    return make_input_error(name, "has " + std::to_string(sentences.size()) +
                                      " sentences; the limit is " +
                                      std::to_string(CorpusLimits::max_sentences));
  for (std::size_t s = 0; s < sentences.size(); ++s) {
    out.push_back(split_words(sentences[s]));
    if (auto error = check_sentence(out.back(), name + '[' + std::to_string(s) + ']')) return error;
  }
  return std::nullopt;
}

// Edits (insert, delete, replace, or swap two neighbouring letters) between two words: a
// mistyped "cta" is one swap from "cat".
std::size_t edit_distance(std::string_view a, std::string_view b) {
  const std::size_t width = b.size() + 1;
  std::vector<std::size_t> cost((a.size() + 1) * width);
  for (std::size_t i = 0; i <= a.size(); ++i) cost[i * width] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) cost[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t best = std::min({cost[(i - 1) * width + j] + 1, cost[i * width + j - 1] + 1,
                                   cost[(i - 1) * width + j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        best = std::min(best, cost[(i - 2) * width + j - 2] + 1);
      cost[i * width + j] = best;
    }
  return cost.back();
}

std::string nearest_words(std::string_view word, const std::vector<std::string>& vocabulary) {
  std::vector<std::pair<std::size_t, std::size_t>> ranked;  // (distance, index)
  for (std::size_t n = 0; n < vocabulary.size(); ++n)
    ranked.emplace_back(edit_distance(word, vocabulary[n]), n);
  std::sort(ranked.begin(), ranked.end());
  std::string list;
  for (std::size_t n = 0; n < ranked.size() && n < 5; ++n)
    list += (n ? ", " : "") + vocabulary[ranked[n].second];
  return list;
}

}  // namespace

CorpusText default_corpus_text() {
  SeededRandom random(corpus_seed);
  std::set<std::string> seen;
  CorpusText text;
  while (text.train.size() + text.held_out.size() <
         default_train_sentences + default_held_out_sentences) {
    std::string sentence = draw_sentence(random);
    if (!seen.insert(sentence).second) continue;
    auto& into = text.train.size() < default_train_sentences ? text.train : text.held_out;
    into.push_back(std::move(sentence));
  }
  return text;
}

std::optional<std::size_t> agreeing_noun_position(const std::vector<std::string>& words) {
  const auto that = std::find(words.begin(), words.end(), "that");
  if (that == words.begin() || that == words.end()) return std::nullopt;
  const std::size_t noun = static_cast<std::size_t>(that - words.begin()) - 1;
  for (std::size_t n = 0; n < animals.size(); ++n)
    if (words[noun] == animals[n] && words.back() == sounds[n]) return noun;
  return std::nullopt;
}

std::variant<Sentence, InputError> encode_words(const std::vector<std::string>& words,
                                                const std::vector<std::string>& vocabulary,
                                                const std::string& path) {
  Sentence sentence;
  for (std::size_t n = 0; n < words.size(); ++n) {
    const auto found = std::lower_bound(vocabulary.begin(), vocabulary.end(), words[n]);
    if (found == vocabulary.end() || *found != words[n]) {
      return make_input_error(path + '[' + std::to_string(n) + ']',
                              json::quoted_excerpt(words[n], 32) + " is not in the vocabulary of " +
                                  std::to_string(vocabulary.size()) +
                                  " words; nearest: " + nearest_words(words[n], vocabulary));
    }
    sentence.push_back(static_cast<std::size_t>(found - vocabulary.begin()));
  }
  return sentence;
}

std::variant<Corpus, InputError> build_corpus(const CorpusText& text) {
  std::vector<std::vector<std::string>> train_words, held_out_words;
  if (text.train.empty()) return make_input_error("corpus.train", "is empty; it needs at least one sentence of two words");
  if (auto error = split_all(text.train, "corpus.train", train_words)) return *error;
  if (auto error = split_all(text.held_out, "corpus.held_out", held_out_words)) return *error;

  std::set<std::string> distinct;
  for (const auto& words : train_words) distinct.insert(words.begin(), words.end());
  if (distinct.size() < 2)
    return make_input_error("corpus.train", "has only one distinct word, " +
                                                json::quoted_excerpt(*distinct.begin(), 32) +
                                                "; there is nothing to learn");
  if (distinct.size() > CorpusLimits::max_vocabulary)
    return make_input_error("corpus.train", "has " + std::to_string(distinct.size()) +
                                                " distinct words; the limit is " +
                                                std::to_string(CorpusLimits::max_vocabulary));

  Corpus corpus;
  corpus.vocabulary.assign(distinct.begin(), distinct.end());
  corpus.text = text;
  for (const auto& words : train_words)
    corpus.train.push_back(std::get<Sentence>(encode_words(words, corpus.vocabulary, "")));
  for (std::size_t s = 0; s < held_out_words.size(); ++s) {
    auto encoded = encode_words(held_out_words[s], corpus.vocabulary,
                                "corpus.held_out[" + std::to_string(s) + "]");
    if (auto* error = std::get_if<InputError>(&encoded)) {
      error->message += " (the training sentences' words)";
      return *error;
    }
    corpus.held_out.push_back(std::move(std::get<Sentence>(encoded)));
  }
  return corpus;
}

std::size_t predicted_word_count(const std::vector<Sentence>& sentences) {
  std::size_t count = 0;
  for (const Sentence& sentence : sentences) count += sentence.size() - 1;
  return count;
}

Baselines corpus_baselines(const std::vector<Sentence>& sentences, std::size_t vocabulary_size) {
  // Counts of each next word, and of each (previous word, next word) pair.
  std::vector<double> next_counts(vocabulary_size, 0.0);
  std::vector<double> previous_counts(vocabulary_size, 0.0);
  std::map<std::pair<std::size_t, std::size_t>, double> pair_counts;
  for (const Sentence& sentence : sentences)
    for (std::size_t t = 0; t + 1 < sentence.size(); ++t) {
      next_counts[sentence[t + 1]] += 1.0;
      previous_counts[sentence[t]] += 1.0;
      pair_counts[{sentence[t], sentence[t + 1]}] += 1.0;
    }
  const double total = static_cast<double>(predicted_word_count(sentences));
  Baselines baselines;
  if (total == 0.0) return baselines;
  // Fitted by counting, each model's probability of a word is its relative frequency, and its
  // loss is -Σ count · ln(probability) / total.
  for (const double count : next_counts)
    if (count > 0.0) baselines.unigram -= count * std::log(count / total);
  for (const auto& [pair, count] : pair_counts)
    baselines.bigram -= count * std::log(count / previous_counts[pair.first]);
  baselines.unigram /= total;
  baselines.bigram /= total;
  return baselines;
}

}  // namespace attn::training
