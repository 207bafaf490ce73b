#include "neural/verify/profiles.hh"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "automata/dataset.hh"
#include "base/file.hh"
#include "base/json.hh"

namespace ltlkit::neural::verify {

namespace {

// docs/PROTOCOL.md `paper`: LC25/LC26's settings (5 layers, d 64, 8 heads; 1M steps of batch 128).
Profile paper() {
    Profile p;
    p.name = "paper";
    p.base.model.layers = 5;
    p.base.model.d_model = 64;
    p.base.model.heads = 8;
    p.base.model.d_ff = 256;
    p.base.training.steps = 1'000'000;
    p.base.training.batch = 128;
    p.base.evaluation.test_min = 41;
    p.base.evaluation.test_max = 500;
    p.base.evaluation.per_length = 512;
    p.base.evaluation.success_rule = SuccessRule::Exact;
    p.base.runtime.checkpoint_every = 5000;
    p.base.runtime.log_every = 5000;
    p.seeds = 5;
    p.lrs = {1e-4, 3e-4, 5e-4};
    p.adversarial_pairs = 256;
    p.note = "LC25/LC26 settings; a GPU cluster";
    return p;
}

// docs/PROTOCOL.md `standard`: the paper's model, 20k steps, 3 seeds at 3e-4; one GPU.
Profile standard() {
    Profile p = paper();
    p.name = "standard";
    p.base.training.steps = 20'000;
    p.base.evaluation.per_length = 128;
    p.base.runtime.checkpoint_every = 1000;
    p.base.runtime.log_every = 1000;
    p.seeds = 3;
    p.lrs = {3e-4};
    p.adversarial_pairs = 128;
    p.note = "the paper's model, 20k steps; one GPU";
    return p;
}

// docs/PROTOCOL.md `quick`: small enough for a 2-core CPU (the README demo, `make run`); success is
// judged per length bin at >= 99% because 32 words per length is a small sample.
Profile quick() {
    Profile p;
    p.name = "quick";
    p.base.model.layers = 2;
    p.base.model.d_model = 32;
    p.base.model.heads = 4;
    p.base.model.d_ff = 64;
    p.base.training.steps = 600;
    p.base.training.batch = 32;
    p.base.evaluation.test_min = 41;
    p.base.evaluation.test_max = 200;
    p.base.evaluation.per_length = 32;
    p.base.evaluation.success_rule = SuccessRule::Bins99;
    p.base.runtime.checkpoint_every = 100;
    p.base.runtime.log_every = 100;
    p.seeds = 1;
    p.lrs = {3e-3};
    p.adversarial_pairs = 32;
    p.note = "a laptop CPU, minutes per run";
    return p;
}

// `make run`'s demo (docs/PROTOCOL.md `demo`): quick's data and test lengths at the papers' depth (5
// layers, whose local models have the receptive field to fit Σ*a and Σ*ab), trained until the fit: every
// 250 steps the accuracy on 2,000 fresh training words, stopping at >= 99.5%, else at 2,000 steps. The
// 2-layer global models of `quick` do not fit Σ*a or Σ*abΣ* on the training lengths within minutes (so a
// predicted failure there is not evidence); at 5 layers and lr 1e-3 they fit in 750-1,250 steps, and
// the failure then shows on the longer words or the pairs. docs/RESULTS.md "make run".
Profile demo() {
    Profile p = quick();
    p.name = "demo";
    p.base.model.layers = 5;
    p.base.training.steps = 2000;  // the budget
    p.base.training.lr = 1e-3;
    p.base.training.fit_check_every = 250;
    p.base.training.fit_check_words = 2000;
    p.base.training.fit_target = 0.995;
    p.base.training.fit_extra_steps = 750;
    p.base.runtime.checkpoint_every = 250;
    p.lrs = {1e-3};
    p.note = "make run: quick at 5 layers, trained until the fit (checked every 250 steps) or 2,000 steps";
    return p;
}

// A first try: `quick` at a quarter of its cost (one layer fewer is not possible for hybrid-2, so
// the model is narrower instead), test lengths 41..60 with 8 words each; about a minute per run on
// one CPU core. Its verdicts are weak evidence (8 words per length): use it to see the whole
// pipeline, then size a real run (quick, cpu, or --steps/--test-lengths/--per-length).
Profile first() {
    Profile p = quick();
    p.name = "first";
    p.base.model.d_model = 16;
    p.base.model.heads = 2;
    p.base.model.d_ff = 32;
    p.base.training.steps = 300;
    p.base.evaluation.test_max = 60;
    p.base.evaluation.per_length = 8;
    // The fit check keeps the protocol's kMinFitWords words (it recorded 200 before; evaluating
    // them costs a small fraction of a second at this size).
    p.adversarial_pairs = 16;
    p.note = "a first try on a CPU: 1-2 s per run (docs/PERFORMANCE.md); weak evidence (8 words per test length)";
    return p;
}

// The papers' protocol (train lengths 1..40, test lengths 41..500, every test length exact for a
// success, 3 seeds) at a model and budget that a 2-core CPU runs in hours for a whole grid: the
// quick model trained three times longer at a lower learning rate, 16 words per test length.
// docs/RESULTS.md says how it was chosen and which cells fit.
Profile cpu() {
    Profile p = quick();
    p.name = "cpu";
    p.base.training.steps = 2000;
    p.base.training.lr = 1e-3;
    p.base.evaluation.test_max = 500;
    p.base.evaluation.per_length = 16;
    p.base.evaluation.success_rule = SuccessRule::Exact;
    p.base.runtime.checkpoint_every = 500;
    p.seeds = 3;
    p.lrs = {1e-3};
    p.adversarial_pairs = 64;
    p.note = "the papers' lengths on a 2-core CPU: about a minute per run on an idle core";
    return p;
}

// `cpu` at the papers' depth, trained until the fit: 5 layers (the 2-layer local models of `cpu`
// provably cannot fit Σ*a or Σ*ab, their receptive field being 2k symbols; at 5 layers their ceiling
// allows it), every 500 steps the accuracy on 2,000 fresh training words, stopping once it is
// >= 99.5% (a margin over the 99% fit threshold of the evaluation), else at the budget. Meant for
// the cells the `cpu` grid did not fit (verify --cells); docs/RESULTS.md gives the cells, the
// calibration and the cost.
Profile cpu_deep() {
    Profile p = cpu();
    p.name = "cpu-deep";
    p.base.model.layers = 5;
    p.base.training.steps = 8000;  // the budget
    p.base.training.fit_check_every = 500;
    p.base.training.fit_check_words = 2000;
    p.base.training.fit_target = 0.995;
    p.base.training.fit_extra_steps = 0;
    p.note = "cpu at 5 layers, trained until the fit (checked every 500 steps) or 8,000 steps; the cells cpu did not fit";
    return p;
}

}  // namespace

Profile tiny_profile() {
    Profile p = quick();
    p.name = "tiny";
    p.base.model.layers = 1;
    p.base.model.d_model = 8;
    p.base.model.heads = 2;
    p.base.model.d_ff = 16;
    p.base.training.steps = 20;
    p.base.training.batch = 8;
    p.base.training.train_min = 1;
    p.base.training.train_max = 8;
    p.base.evaluation.test_min = 9;
    p.base.evaluation.test_max = 16;
    p.base.evaluation.per_length = 4;
    p.base.evaluation.fit_words = 50;
    p.base.runtime.checkpoint_every = 10;
    p.base.runtime.log_every = 5;  // progress between checkpoints (the resume test copies one mid-run)
    p.adversarial_pairs = 4;
    p.note = "tests only";
    return p;
}

std::vector<std::string> profile_names() { return {"first", "quick", "demo", "cpu", "cpu-deep", "standard", "paper"}; }

namespace {

// 1000000 -> "1,000,000".
std::string grouped(long n) {
    std::string digits = std::to_string(n), out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

// 3e-4 -> "3e-4", 0.001 -> "1e-3", 0.5 -> "0.5".
std::string short_lr(double lr) {
    char buf[32];
    for (int e = 1; e <= 8; ++e) {
        const double m = lr * std::pow(10.0, e);
        if (m >= 1 && m < 10 && std::abs(m - std::round(m)) < 1e-9) {
            std::snprintf(buf, sizeof buf, "%de-%d", static_cast<int>(std::round(m)), e);
            return e == 1 ? format_lr(lr) : std::string(buf);
        }
    }
    return format_lr(lr);
}

std::string fmt_g(double x) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", x);
    return buf;
}

std::string percent(double x) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g%%", 100 * x);
    return buf;
}

}  // namespace

std::vector<std::string> profile_columns() {
    return {"profile", "layers × d × heads (d_ff)", "steps × batch", "seeds × learning rates",
            "test lengths × words per length", "success", "fit check", "adversarial pairs", "meant for"};
}

std::vector<std::string> profile_row(const Profile& p) {
    const auto& m = p.base.model;
    const auto& t = p.base.training;
    const auto& v = p.base.evaluation;
    std::string steps = grouped(t.steps) + " × " + std::to_string(t.batch);
    if (t.fit_check_every > 0) {
        steps = "until the fit (checked every " + grouped(t.fit_check_every) + " steps on " + grouped(t.fit_check_words) +
                " fresh words, stop at " + percent(t.fit_target) +
                (t.fit_extra_steps > 0 ? ", then " + grouped(t.fit_extra_steps) + " more" : std::string()) +
                "), at most " + steps;
    }
    std::string lrs;
    for (double lr : p.lrs) lrs += (lrs.empty() ? "" : ", ") + short_lr(lr);
    return {p.name,
            std::to_string(m.layers) + " × " + std::to_string(m.d_model) + " × " + std::to_string(m.heads) + " (" +
                std::to_string(m.d_ff) + ")",
            steps,
            std::to_string(p.seeds) + " × {" + lrs + "}",
            std::to_string(v.test_min) + ".." + std::to_string(v.test_max) + " × " + grouped(v.per_length),
            "`" + to_string(v.success_rule) + "`: " + describe(v.success_rule),
            grouped(v.fit_words) + " words, accuracy < " + fmt_g(kFitThreshold) + ": failed_to_fit",
            std::to_string(p.adversarial_pairs),
            p.note};
}

std::string profile_table(bool markdown) {
    std::vector<std::vector<std::string>> rows{profile_columns()};
    for (const auto& name : profile_names()) rows.push_back(profile_row(profile_by_name(name).value()));
    std::string out;
    if (markdown) {
        for (std::size_t r = 0; r < rows.size(); ++r) {
            out += "|";
            for (std::size_t c = 0; c < rows[r].size(); ++c) {
                const char* quote = r > 0 && c == 0 ? "`" : "";  // the profile's name as code
                out.append(" ").append(quote).append(rows[r][c]).append(quote).append(" |");
            }
            out += "\n";
            if (r == 0) {
                out += "|";
                for (std::size_t c = 0; c < rows[r].size(); ++c) out += "---|";
                out += "\n";
            }
        }
        return out;
    }
    // Plain text: one block per profile, a field per line ("  steps × batch: 600 × 32").
    for (std::size_t r = 1; r < rows.size(); ++r) {
        out += rows[r][0] + "\n";
        for (std::size_t c = 1; c < rows[r].size(); ++c) out += "  " + rows[0][c] + ": " + rows[r][c] + "\n";
    }
    return out;
}

Result<Profile> profile_by_name(const std::string& name) {
    if (name == "first") return first();
    if (name == "quick") return quick();
    if (name == "demo") return demo();
    if (name == "cpu") return cpu();
    if (name == "cpu-deep") return cpu_deep();
    if (name == "standard") return standard();
    if (name == "paper") return paper();
    // Not listed (tests only): CLI tests that must run whole grids in seconds, e.g. tests/cli/slurm.sh.
    if (name == "tiny") return tiny_profile();
    return make_error("unknown profile '" + name + "' (expected first, quick, demo, cpu, cpu-deep, standard or paper)");
}

ProfileSizes ProfileSizes::merged_with(const ProfileSizes& over) const {
    ProfileSizes m = *this;
    auto take = [](auto& mine, const auto& theirs) {
        if (theirs) mine = theirs;
    };
    take(m.profile, over.profile);
    take(m.steps, over.steps);
    take(m.layers, over.layers);
    take(m.d_model, over.d_model);
    take(m.heads, over.heads);
    take(m.d_ff, over.d_ff);
    take(m.per_length, over.per_length);
    take(m.seeds, over.seeds);
    take(m.test_lengths, over.test_lengths);
    return m;
}

Result<Profile> apply_sizes(Profile p, const ProfileSizes& s) {
    for (const auto& [name, v] : {std::pair{"steps", s.steps}, {"layers", s.layers}, {"d-model", s.d_model},
                                  {"heads", s.heads}, {"d-ff", s.d_ff}, {"per-length", s.per_length}, {"seeds", s.seeds}})
        if (v && *v < 1) return make_error(std::string("--") + name + " must be at least 1 (got " + std::to_string(*v) + ")");
    auto& m = p.base.model;
    if (s.d_model && !s.d_ff) m.d_ff = std::max(1, static_cast<int>(static_cast<long>(m.d_ff) * *s.d_model / m.d_model));
    if (s.d_model) m.d_model = *s.d_model;
    if (s.d_ff) m.d_ff = *s.d_ff;
    if (s.heads) m.heads = *s.heads;
    if (s.layers) m.layers = *s.layers;
    if (m.d_model % m.heads != 0)
        return make_error("--d-model " + std::to_string(m.d_model) + " is not a multiple of --heads " +
                          std::to_string(m.heads) + " (each head gets d-model / heads dimensions)");
    if (s.steps) p.base.training.steps = *s.steps;
    if (s.per_length) p.base.evaluation.per_length = *s.per_length;
    if (s.seeds) p.seeds = *s.seeds;
    if (s.test_lengths) {
        const auto [lo, hi] = *s.test_lengths;
        if (lo < 1 || hi < lo)
            return make_error("--test-lengths " + std::to_string(lo) + ":" + std::to_string(hi) +
                              ": expected A:B with 1 <= A <= B");
        p.base.evaluation.test_min = lo;
        p.base.evaluation.test_max = hi;
    }
    return p;
}

Result<ProfileSizes> read_profile_file(const std::string& path) {
    auto text = read_file(path);
    if (!text.ok()) return text.error();
    auto parsed = parse_json<nlohmann::json>(*text);
    if (!parsed.ok()) {
        Error e = parsed.error();
        e.origin = path;
        return e;
    }
    const nlohmann::json& j = *parsed;
    if (!j.is_object()) return make_error(path + ": a profile file is a JSON object, e.g. {\"profile\": \"quick\", \"steps\": 300}");
    ProfileSizes s;
    for (const auto& [key, v] : j.items()) {
        if (key == "profile") {
            if (!v.is_string()) return make_error(path + ": \"profile\" must be a profile name (a string)");
            s.profile = v.get<std::string>();
        } else if (key == "test_lengths") {
            if (!v.is_string()) return make_error(path + ": \"test_lengths\" must be a string \"A:B\"");
            auto r = automata::parse_length_range(v.get<std::string>());
            if (!r.ok()) return make_error(path + ": test_lengths: " + r.error().message);
            if (r->hi > 100000) return make_error(path + ": test_lengths: at most 100000");
            s.test_lengths = std::pair{static_cast<int>(r->lo), static_cast<int>(r->hi)};
        } else {
            std::optional<int>* field = key == "steps"        ? &s.steps
                                        : key == "layers"     ? &s.layers
                                        : key == "d_model"    ? &s.d_model
                                        : key == "heads"      ? &s.heads
                                        : key == "d_ff"       ? &s.d_ff
                                        : key == "per_length" ? &s.per_length
                                        : key == "seeds"      ? &s.seeds
                                                              : nullptr;
            if (!field)
                return make_error(path + ": unknown key \"" + key +
                                  "\" (expected profile, steps, layers, d_model, heads, d_ff, test_lengths, per_length, seeds)");
            if (!v.is_number_integer() || v.get<long long>() < 1 || v.get<long long>() > 100000000)
                return make_error(path + ": \"" + key + "\" must be a positive integer");
            *field = static_cast<int>(v.get<long long>());
        }
    }
    return s;
}

std::string format_lr(double lr) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", lr);
    return buf;
}

}  // namespace ltlkit::neural::verify
