#include "neural/verify/ceilings.hh"

#include <algorithm>
#include <map>

namespace ltlkit::neural::verify {

std::optional<std::string> no_ceiling_reason(const Architecture& arch, const ModelConfig& model) {
    switch (arch.kind) {
        case Architecture::Kind::Global: return std::string("none for global attention (every position is in reach)");
        case Architecture::Kind::Hybrid: return std::string("none for hybrid attention (its global heads see every position)");
        case Architecture::Kind::Lstm: return std::string("none for the LSTM");
        case Architecture::Kind::Local: break;
    }
    if (model.pe != PositionalEncoding::None) return "unknown with positional encoding " + to_string(model.pe);
    if (!model.strict) return std::string("unknown with non-strict masks");
    return std::nullopt;
}

CellCeiling cell_ceiling(const Plan& plan, const LanguagePlan& lang, const ArchPlan& arch) {
    CellCeiling c;
    if (auto why = no_ceiling_reason(arch.arch, plan.base.model)) {
        c.note = *why;
        return c;
    }
    (void)lang;
    c.note = "not computed (automata/ceiling.hh not merged yet)";
    return c;
}

std::optional<double> sample_ceiling(const automata::Dfa& dfa, const Architecture& arch, const ModelConfig& model,
                                     const std::vector<LabelledWord>& test) {
    (void)dfa, (void)test;
    if (no_ceiling_reason(arch, model)) return std::nullopt;
    return std::nullopt;
}

AdversarialMarking mark_adversarial(const automata::Dfa& dfa, const Architecture& arch, const ModelConfig& model,
                                    const std::vector<LabelledWord>& set) {
    (void)dfa;
    AdversarialMarking m;
    std::map<long, int> sizes;
    for (const auto& w : set) ++sizes[w.pair];
    for (const auto& [id, n] : sizes) m.pairs += n == 2;
    if (no_ceiling_reason(arch, model)) {
        m.kind = "informative";
        return m;
    }
    m.kind = "";
    return m;
}

std::string witness_shortfall(const automata::WordFamily& f, std::size_t pairs, const Profile& profile) {
    const EvaluationConfig& e = profile.base.evaluation;
    std::size_t fitting = 0, shortest_r = 0, longest_r = 0;
    for (std::size_t r = f.r_min; r <= f.r_min + static_cast<std::size_t>(e.test_max) + 1; ++r) {
        const auto [u, v] = f.at(r);
        if (std::min(u.size(), v.size()) > static_cast<std::size_t>(e.test_max)) break;
        const auto in = [&](std::size_t n) { return n >= static_cast<std::size_t>(e.test_min) && n <= static_cast<std::size_t>(e.test_max); };
        if (in(u.size()) && in(v.size())) {
            if (fitting++ == 0) shortest_r = r;
            longest_r = r;
        }
    }
    std::string t = "the witness family gives " + std::to_string(pairs) + " pairs, not " +
                    std::to_string(profile.adversarial_pairs) + ": only r = " + std::to_string(shortest_r) + ".." +
                    std::to_string(longest_r) + " put both words in lengths " + std::to_string(e.test_min) + ".." +
                    std::to_string(e.test_max);
    if (!f.e.empty()) t += " (one pair per r, and its words grow with r², since every eʳ block grows with r)";
    if (fitting > pairs) t += "; " + std::to_string(fitting - pairs) + " of those r give words with the same label";
    return t;
}

}  // namespace ltlkit::neural::verify
