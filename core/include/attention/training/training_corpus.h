// The sentences the one-layer model trains on: a corpus the project writes itself, in which one
// word can only be predicted by looking back past the previous one, and the baselines that say
// what a model without attention to earlier words could do on it.
//
// The default corpus: every sentence is
//   determiner [adjective] ANIMAL that PAST-VERB PREPOSITION the [adjective] PLACE SOUND
// for example "the cat that sat on the mat purrs" or "a big dog that slept by the old door barks".
// The last word, the animal's sound (cat purrs, dog barks, ...), agrees with the animal six or
// seven words earlier, while the word before it is a place, which says nothing about the animal:
// the bigram model is left guessing among the sounds, and a head that attends from the place
// back to the animal can name the sound.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "attention/reference/attention_input.h"

namespace attn::training {

struct CorpusLimits {
  static constexpr std::size_t max_sentence_words = 16;  // the rows of the position table
  static constexpr std::size_t max_sentences = 4096;     // each of train and held_out
  static constexpr std::size_t max_vocabulary = 512;
  static constexpr std::size_t max_word_bytes = 32;
};

// Sentences as text: each one words separated by single spaces.
struct CorpusText {
  std::vector<std::string> train;
  std::vector<std::string> held_out;
};

using Sentence = std::vector<std::size_t>;  // [T] word indices into the vocabulary

struct Corpus {
  std::vector<std::string> vocabulary;  // [V] sorted, every word of the training sentences
  std::vector<Sentence> train;
  std::vector<Sentence> held_out;
  CorpusText text;                      // the sentences as given
};

// How many sentences of each kind the default corpus holds.
inline constexpr std::size_t default_train_sentences = 320;
inline constexpr std::size_t default_held_out_sentences = 80;

// The default corpus: distinct sentences drawn with the project's seeded generator from a fixed
// seed (the same corpus for every model seed), none of the held-out ones in the training set.
CorpusText default_corpus_text();

// The animal of a default-corpus sentence is the word before "that"; its sound is the last word.
// For the job the trained head has: the index (into the sentence) of the animal, or nothing for a
// sentence of another shape.
std::optional<std::size_t> agreeing_noun_position(const std::vector<std::string>& words);

// Splits on single spaces; refuses (path "corpus.train[3]" and so on) an empty sentence, a
// sentence of one word (nothing to predict), more than max_sentence_words words, a word longer
// than max_word_bytes or not printable ASCII, an empty training set, a training set with one
// distinct word, a vocabulary beyond max_vocabulary, and a held-out word the training set lacks.
std::variant<Corpus, InputError> build_corpus(const CorpusText& text);

// The words of one sentence as vocabulary indices; refuses an unknown word with the vocabulary's
// nearest words ("tokens[2]: \"cta\" is not in the vocabulary; nearest: cat, cow, ...").
std::variant<Sentence, InputError> encode_words(const std::vector<std::string>& words,
                                                const std::vector<std::string>& vocabulary,
                                                const std::string& path);

// Mean cross-entropy in nats of every next word of the training sentences (the model's loss,
// pooled over positions) for the best model of each kind, fitted on those same sentences by
// counting: the unigram (no context at all) and the bigram (the previous word alone). No model
// that sees only the current word can do better on the training set than the bigram.
struct Baselines {
  double unigram = 0.0;
  double bigram = 0.0;
};
Baselines corpus_baselines(const std::vector<Sentence>& sentences, std::size_t vocabulary_size);

// How many next words the sentences hold: Σ (T - 1), what the loss is the mean over.
std::size_t predicted_word_count(const std::vector<Sentence>& sentences);

}  // namespace attn::training
