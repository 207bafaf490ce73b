// Causal next-token language models with the recognizers' attention patterns (global, local-k,
// hybrid-k heads; standard or strict causal masks) and positional encodings (none, learned,
// sinusoidal, RoPE): corpora, training with checkpoints and resume, perplexity, and sweeps over
// pattern x k x encoding x seed. Torch-free header (the model lives in neural/lm/model.hh).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "base/error.hh"
#include "neural/run.hh"

namespace ltlkit::neural::lm {

// One language-model run's settings, in three parts that are compared each as a whole: the model
// and its training determine the trajectory (a checkpoint resumes only under equal parts); the
// runtime does not. Saved in run.json, checkpoints and result.json as one flat JSON object.
struct LmModel {
    Architecture arch;            // global | local-K | hybrid-K (an LSTM is not a language model here)
    int layers = 2;
    int d_model = 128;
    int heads = 4;
    int d_ff = 512;
    PositionalEncoding pe = PositionalEncoding::Learned;
    bool strict = false;          // standard causal masks (j <= i); strict: j < i
    bool hybrid_by_layer = false; // hybrid-K: alternate whole layers (local first) instead of heads
    int context = 128;            // tokens per training window (learned PE has this many rows)
    bool operator==(const LmModel&) const = default;
};

// Adam, linear warm-up then cosine decay to lr * min_lr_ratio, gradient clipping.
struct LmTraining {
    int steps = 400;
    int batch = 16;
    double lr = 2e-3;
    int warmup = 40;
    double min_lr_ratio = 0.1;
    double grad_clip = 1.0;
    std::uint64_t seed = 1;
    bool operator==(const LmTraining&) const = default;
};

// How a run executes: a checkpoint resumes under other values.
struct LmRuntime {
    int threads = 1;
    Device device = Device::Auto;
    int checkpoint_every = 200;
    int log_every = 100;
    int eval_every = 0;           // steps between validation losses in metrics.jsonl (0: at the end only)
    long eval_tokens = 0;         // at most this many scored tokens per evaluation (0: the whole split)
    bool operator==(const LmRuntime&) const = default;
};

struct LmConfig {
    LmModel model;
    LmTraining training;
    LmRuntime runtime;
    bool operator==(const LmConfig&) const = default;
};

// The built-in shapes: "cpu" (a small model, about a minute per run on one core) and "gpu"
// (GPT-2 small: 12 layers, d 768, 12 heads, context 512). Error for another name.
Result<LmConfig> lm_profile(const std::string& name);

std::string lm_config_to_json(const LmConfig& c);
Result<LmConfig> lm_config_from_json(const std::string& text);
// The model and training parts, which determine the training trajectory, as canonical JSON
// (stored in checkpoints: resume needs equality).
std::string lm_training_key(const LmConfig& c);
// Checks the model, training and runtime fields (arch, pe, sizes, rates); Error names the option.
Result<bool> check_lm_config(const LmConfig& c);

// ---- corpora

// word: whitespace-separated words, each line followed by "<eos>" (WikiText-2's convention:
// `<unk>` is an ordinary word of its files; a validation/test word absent from the training split
// becomes <unk>). char: Unicode code points (newline included) of UTF-8 text; a code point absent
// from the training split becomes <unk>. byte: the 256 byte values.
struct CorpusFiles {
    std::string train, valid, test;
    std::string tokenizer = "char";  // word | char | byte
};
// The WikiText-2 file names under DIR (wiki.train.tokens, wiki.valid.tokens, wiki.test.tokens),
// word-level.
CorpusFiles wikitext_files(const std::string& dir);

struct Split {
    std::string path, sha256;
    std::vector<std::int32_t> tokens;
    // Characters each token stands for, so that per-character perplexity is comparable across
    // tokenizers: char 1; byte 1 for the first byte of a UTF-8 sequence, else 0; word: its code
    // points plus the space or newline after it, "<eos>" 1 on an empty line, else 0 (the text with
    // words joined by single spaces and each line ended by one newline).
    std::vector<std::uint16_t> chars;
    long unknown = 0;  // tokens mapped to <unk> because the training split lacks them
};

struct Corpus {
    std::string tokenizer;
    std::vector<std::string> vocab;  // id -> token (char: its UTF-8 bytes; byte: "<0xHH>")
    Split train, valid, test;
    std::string vocab_sha256;        // SHA-256 of the vocabulary, one token per line
    // {"tokenizer", "vocab_size", "vocab_sha256", "train"/"valid"/"test": {path, sha256, tokens}}
    std::string identity_json() const;
};

// Reads and tokenizes the three files. Errors: unreadable file, invalid UTF-8 (char/word, with
// FILE:LINE), a split without tokens, an unknown tokenizer.
Result<Corpus> read_corpus(const CorpusFiles& files);

// Tokens as one string (char/byte: the text; word: words joined by spaces, <eos> as newline).
std::string detokenize(const Corpus& c, const std::vector<std::int32_t>& tokens);

// ---- runs

struct SplitScore {
    long tokens = 0;      // scored (predicted) tokens
    long chars = 0;       // characters they stand for
    double nll = 0;       // summed negative log-likelihood, nats
    double ppl_token() const;
    double ppl_char() const;
    double bits_per_char() const;
};
std::string score_to_json(const SplitScore& s);

struct LmResult {
    LmConfig config;
    std::string corpus_json;  // Corpus::identity_json()
    long parameters = 0;
    int steps_done = 0;
    double train_seconds = 0, tokens_per_second = 0, wall_seconds = 0;
    double final_loss = 0;    // mean training loss of the last logged window
    SplitScore valid, test;
    double unigram_valid_ppl = 0;  // add-one unigram of the training split, for reference
    int eval_context = 0;          // evaluation windows (tokens); the training context when 0
    std::string device;
};
std::string lm_result_to_json(const LmResult& r);
Result<LmResult> lm_result_from_json(const std::string& text);

struct LmProgress {
    int step = 0, total = 0;
    double loss = 0, lr = 0, tokens_per_second = 0, eta_seconds = 0;
};
using LmProgressFn = std::function<void(const LmProgress&)>;

// Trains (resuming from RUNDIR/checkpoint.pt when present: an error if its config or corpus
// differs), writing RUNDIR/run.json, checkpoints, metrics.jsonl (one line per step, plus
// validation lines), then evaluates validation and test and writes RUNDIR/result.json.
Result<LmResult> train_lm(const LmConfig& c, const Corpus& corpus, const std::string& rundir,
                          const LmProgressFn& progress = nullptr);
// Re-evaluates RUNDIR's checkpoint on a corpus whose training split and tokenizer are the run's
// (validation and test files may differ); rewrites result.json. threads, device and eval_tokens
// from `runtime` (the run's other runtime fields are kept). eval_context > 0: windows of that many tokens instead of the training context (an error
// above the learned positional table's rows).
Result<LmResult> evaluate_lm(const std::string& rundir, const Corpus& corpus, const LmRuntime& runtime,
                             int eval_context = 0);
// The config and corpus files recorded in RUNDIR/run.json.
Result<std::pair<LmConfig, CorpusFiles>> read_lm_run(const std::string& rundir);

// ---- sweeps

struct SweepSpec {
    LmConfig base;
    std::vector<Architecture> archs;       // e.g. global, local-1, local-4, hybrid-1, hybrid-4
    std::vector<PositionalEncoding> pes;   // e.g. learned, rope, sinusoidal
    int seeds = 2;                   // seeds 1..seeds
    std::string out;
    bool table_only = false;         // train nothing: the table of the runs already finished
};
// The architectures of patterns x ks, global once: each pattern is Global, Local or Hybrid (an
// Architecture's k is ignored here).
std::vector<Architecture> sweep_archs(const std::vector<Architecture::Kind>& patterns, const std::vector<int>& ks);

struct SweepCell {
    Architecture arch;
    PositionalEncoding pe;
    std::vector<double> valid_ppl, test_ppl, test_bpc;  // one per finished seed
};
// Trains every missing run OUT/ARCH.PE.seedS (a run whose result.json holds the same training
// config is skipped; an interrupted one resumes), rewriting OUT/table.md, table.json and
// figure.svg after each run (with table_only: from the finished runs alone, training nothing).
// `on_run(name, skipped)` is called before each run.
Result<std::vector<SweepCell>> run_sweep(const SweepSpec& spec, const Corpus& corpus,
                                         const std::function<void(const std::string&, bool)>& on_run,
                                         const LmProgressFn& progress);
// The table (Markdown), its JSON and the SVG figure of the cells: mean ± sd test perplexity per
// (arch, pe) with the difference of means to global for the same pe.
std::string sweep_markdown(const std::vector<SweepCell>& cells);
std::string sweep_json(const std::vector<SweepCell>& cells);
std::string sweep_svg(const std::vector<SweepCell>& cells);

}  // namespace ltlkit::neural::lm
