// Why a window architecture (local-K, hybrid-K, K >= 2) fails a language: the witness family with
// concrete words and their labels, what the window sees at their ends, and, when a smaller window
// recognizes the language, why that is no contradiction (docs/WINDOWS.md §1, §2 and §8).

#include <algorithm>
#include <set>
#include <string>

#include "automata/algebra/classify.hh"

namespace ltlkit::automata::algebra {

namespace {

std::string word_text(const std::vector<std::string>& alphabet, const Word& w) {
    return w.empty() ? "ε" : format_word(alphabet, w);
}

// "x·(p)^r·y" with the empty parts left out: "(ab)^r·a".
std::string family_pattern(const std::vector<std::string>& alphabet, const Word& x, const Word& p, const Word& t) {
    std::string s = x.empty() ? "" : format_word(alphabet, x) + "·";
    s.append("(").append(format_word(alphabet, p)).append(")^r");
    if (!t.empty()) s += "·" + format_word(alphabet, t);
    return s;
}

// The symbols of the last k positions of w, as a set: "{a, b}".
std::string window_set(const std::vector<std::string>& alphabet, const Word& w, unsigned k) {
    std::set<Symbol> seen(w.end() - std::min<std::ptrdiff_t>(k, std::ptrdiff_t(w.size())), w.end());
    std::string s;
    for (Symbol a : seen) s += (s.empty() ? "" : ", ") + alphabet.at(a);
    return "{" + s + "}";
}

Word last(const Word& w, unsigned k) { return Word(w.end() - std::min<std::ptrdiff_t>(k, std::ptrdiff_t(w.size())), w.end()); }

// The smallest window j < k whose architecture recognizes the language, with a defining formula
// when its certificate has a short one.
std::optional<std::pair<unsigned, std::string>> smaller_window(const Classification& c, bool hybrid, unsigned k) {
    const ClassId base = hybrid ? ClassKind::LocallyRTrivial : ClassKind::Definite;
    auto formula = [&](const ClassId& id) -> std::string {
        auto it = c.certificates.find(id);
        if (it == c.certificates.end() || !it->second.formula || it->second.formula->size() > 60) return "";
        return *it->second.formula;
    };
    if (auto it = c.classes.find(base); it != c.classes.end() && it->second && *it->second) return std::pair{1u, formula(base)};
    const auto& answers = hybrid ? c.hybrid_k : c.local_k;
    for (const auto& [j, a] : answers)
        if (j < k && a == Answer::Yes) return std::pair{j, formula(window_class_id(hybrid, j))};
    return std::nullopt;
}

}  // namespace

std::string window_failure_reason(const Classification& c, const ArchPrediction& p, const Dfa& dfa) {
    const bool window = p.arch.kind == Architecture::Kind::Local || p.arch.kind == Architecture::Kind::Hybrid;
    if (!window || p.arch.k < 2 || p.prediction != Prediction::Fails || !p.witness) return "";
    const bool hybrid = p.arch.kind == Architecture::Kind::Hybrid;
    const unsigned k = unsigned(p.arch.k);
    const std::string ks = std::to_string(k), logic = hybrid ? "LTL[P,Y<=" + ks + "]" : "LTL[Y<=" + ks + "]";
    const WordFamily& f = *p.witness;
    const std::size_t r = std::max<std::size_t>(f.r_min, 2);
    auto [u, v] = f.at(r);
    if (!dfa.accepts(u)) std::swap(u, v);  // u accepted, v rejected (the family's words differ in membership)
    const auto& A = c.alphabet;
    std::string out;
    if (!f.extended()) {
        const bool u_is_y = f.at(r).first == u;
        out += "the words " + family_pattern(A, f.x, f.p, u_is_y ? f.y : f.z) + " and " +
               family_pattern(A, f.x, f.p, u_is_y ? f.z : f.y) + " differ in membership for every r ≥ " +
               std::to_string(f.r_min) + " (r = " + std::to_string(r) + ": " + word_text(A, u) + " is accepted, " +
               word_text(A, v) + " rejected)";
    } else {
        out += "two words of a family differ in membership for every r ≥ " + std::to_string(f.r_min) + " (r = " +
               std::to_string(r) + ": " + word_text(A, u) + " is accepted, " + word_text(A, v) + " rejected)";
    }
    out += ", yet no " + logic + " formula tells them apart for large r";
    if (window_set(A, u, k) == window_set(A, v, k) && last(u, k) != last(v, k))
        out += ": their last " + ks + " symbols, " + word_text(A, last(u, k)) + " and " + word_text(A, last(v, k)) +
               ", are the same set " + window_set(A, u, k) + ", and a window of " + ks +
               " says only which symbols occur among the " + ks + " previous positions, not where";
    out += std::string("; nested windows") + (hybrid ? " and the strict past" : "") +
           " do not help either: the ends of the two words are bisimilar (docs/WINDOWS.md §2), so every formula of "
           "temporal depth d answers alike once " +
           (hybrid || f.extended() ? std::string("r is large enough") : "r·" + std::to_string(f.p.size()) + " ≥ d·" + ks);
    if (auto j = smaller_window(c, hybrid, k)) {
        const std::string js = std::to_string(j->first);
        out += ". Membership is not monotone in k: " + std::string(hybrid ? "hybrid-" : "local-") + js +
               " recognizes the language" + (j->second.empty() ? "" : " (" + j->second + ")") + ", because Y<=" + js +
               (j->first == 1 ? " (= Y) reads the previous position itself"
                               : " windows, nested, locate what separates these words") +
               ", whereas Y<=" + ks + " φ only says that φ holds at one of the " + ks +
               " previous positions (within " + ks + ", not at a given distance), so the larger window loses what the smaller one "
               "sees (docs/WINDOWS.md §8)";
    }
    return out;
}

}  // namespace ltlkit::automata::algebra
