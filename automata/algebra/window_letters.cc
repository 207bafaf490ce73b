// Letters that act alike (window_letters.hh, docs/WINDOWS.md §10, Proposition 10.9).
#include "automata/algebra/window_letters.hh"

#include <algorithm>
#include <functional>

#include "automata/algorithms.hh"
#include "ltl/builder.hh"
#include "ltl/parser.hh"

namespace ltlkit::automata::algebra {

namespace {

bool same_column(const Dfa& d, Symbol a, Symbol b) {
    for (State q = 0; q < d.num_states(); ++q)
        if (d.next(q, a) != d.next(q, b)) return false;
    return true;
}

// The reduced question's "yes" formula lifted by `lift` and compiled back on `minimal` (route
// PREFIX:ROUTE); nullopt when there is no formula or it does not compile back within the cap.
std::optional<WindowDecision> lifted_yes(const WindowDecision& reduced, const Dfa& minimal, unsigned k, bool hybrid,
                                         const WindowOptions& options, const std::string& why, const std::string& prefix,
                                         const std::function<ltl::Formula(ltl::Formula)>& lift) {
    const Certificate& c = reduced.certificate;
    if (reduced.answer != Answer::Yes || !c.formula) return std::nullopt;
    auto f = ltl::parse_formula(*c.formula);
    if (!f) return std::nullopt;
    const std::string route = c.window && c.window->route ? *c.window->route : "formula";
    return window_yes_by_formula(minimal, lift(*f), k, hybrid, options, why, prefix + ":" + route);
}

}  // namespace

void rename_words(Certificate& c, const std::function<Symbol(Symbol)>& letter) {
    auto rename = [&](Word& w) {
        for (Symbol& s : w)
            if (s != WordFamily::kLoopMarker) s = letter(s);
    };
    if (c.family) {
        WordFamily& f = *c.family;
        for (Word* w : {&f.x, &f.p, &f.y, &f.z, &f.e, &f.q}) rename(*w);
        if (f.x2) rename(*f.x2);
    }
    for (auto& [u, v] : c.pairs) rename(u), rename(v);
    if (c.window && c.window->x) rename(*c.window->x);
}

std::optional<LetterClasses> letters_acting_alike(const Dfa& minimal) {
    LetterClasses m;
    m.class_of.assign(minimal.num_symbols(), 0);
    for (Symbol a = 0; a < minimal.num_symbols(); ++a) {
        bool merged = false;
        for (Symbol r = 0; r < m.kept.size() && !merged; ++r)
            if (same_column(minimal, m.kept[r], a)) m.class_of[a] = r, merged = true;
        if (!merged) {
            m.class_of[a] = static_cast<Symbol>(m.kept.size());
            m.kept.push_back(a);
        }
    }
    if (m.kept.size() == minimal.num_symbols()) return std::nullopt;
    const Dfa r = restrict_letters(minimal, m.kept);
    // Still minimal (a word using a merged letter reaches and separates what the same word with the
    // kept letter does); minimize() renumbers it canonically.
    m.reduced = minimize(r);
    return m;
}

std::size_t letter_classes(const Dfa& minimal) {
    auto m = letters_acting_alike(minimal);
    return m ? m->kept.size() : minimal.num_symbols();
}

std::string merged_letters_phrase(const LetterClasses& m, const Dfa& minimal) {
    std::string out;
    for (Symbol r = 0; r < m.kept.size(); ++r) {
        std::string others;
        for (Symbol a = 0; a < minimal.num_symbols(); ++a)
            if (m.class_of[a] == r && a != m.kept[r]) others += (others.empty() ? "" : ", ") + minimal.alphabet[a];
        if (others.empty()) continue;
        out += (out.empty() ? "" : "; ") + others + " act" + (others.find(',') == std::string::npos ? "s" : "") + " as " +
               minimal.alphabet[m.kept[r]];
    }
    return out;
}

Word lift_word(const Word& w, const LetterClasses& m) {
    Word out;
    out.reserve(w.size());
    for (Symbol s : w) out.push_back(s == WordFamily::kLoopMarker ? s : m.kept.at(s));
    return out;
}

ltl::Formula lift_formula(ltl::Formula f, const LetterClasses& m, const std::vector<std::string>& alphabet) {
    return ltl::rebuilt(f, [&](ltl::Formula g, ltl::Formula c0, ltl::Formula c1) {
        if (g.op() == ltl::Op::Atom)
            for (Symbol i = 0; i < m.kept.size(); ++i)
                if (alphabet[m.kept[i]] == g.name()) {
                    std::vector<ltl::Formula> letters;
                    for (Symbol a = 0; a < alphabet.size(); ++a)
                        if (m.class_of[a] == i) letters.push_back(ltl::Formula::atom(alphabet[a]));
                    return ltl::disjunction(letters);
                }
        return ltl::with_children(g, c0, c1);
    });
}

WindowDecision lift_decision(WindowDecision reduced, const LetterClasses& m, const Dfa& minimal, unsigned k, bool hybrid,
                             const WindowOptions& options) {
    std::string over;
    for (const std::string& a : m.reduced.alphabet) over += (over.empty() ? "" : ", ") + a;
    const std::string opening = merged_letters_phrase(m, minimal) +
                                " (equal columns of the minimal DFA; Proposition 10.9, docs/WINDOWS.md §10), so the question is "
                                "asked over {" + over + "}: ";
    Certificate& c = reduced.certificate;
    if (auto w = lifted_yes(reduced, minimal, k, hybrid, options, opening + c.fact + "; each kept letter widened to its class",
                            "merged_letters", [&](ltl::Formula f) { return lift_formula(f, m, minimal.alphabet); })) {
        w->certificate.window->complete = c.window ? c.window->complete : std::nullopt;
        return std::move(*w);
    }
    if (reduced.answer == Answer::Yes && c.formula) {
        // Cannot happen (the widened formula defines the language): the answer stands without a formula.
        c.formula.reset();
        c.formula_omitted = "the reduced formula, widened, did not compile back to the language";
    }
    rename_words(c, [&](Symbol s) { return m.kept.at(s); });
    c.fact = opening + c.fact;
    return reduced;
}

// --- zero letters (Proposition 10.10) ---

namespace {

// The sink a letter's column sends every state to, if there is one.
std::optional<State> zero_sink(const Dfa& d, Symbol c) {
    const State z = d.next(d.initial, c);
    for (Symbol a = 0; a < d.num_symbols(); ++a)
        if (d.next(z, a) != z) return std::nullopt;
    for (State q = 0; q < d.num_states(); ++q)
        if (d.next(q, c) != z) return std::nullopt;
    return z;
}

ltl::Formula any_of(const std::vector<std::string>& letters) {
    std::vector<ltl::Formula> atoms;
    for (const std::string& a : letters) atoms.push_back(ltl::Formula::atom(a));
    return ltl::disjunction(atoms);
}

}  // namespace

std::vector<std::string> ZeroLetters::letters() const {
    std::vector<std::string> out;
    for (const ZeroStep& s : steps) out.insert(out.end(), s.letters.begin(), s.letters.end());
    return out;
}

std::optional<ZeroLetters> zero_letters(const Dfa& minimal) {
    ZeroLetters z;
    z.reduced = minimal;
    for (Symbol a = 0; a < minimal.num_symbols(); ++a) z.kept.push_back(a);
    for (;;) {
        const Dfa& d = z.reduced;
        ZeroStep step;
        std::vector<Symbol> keep;
        for (Symbol c = 0; c < d.num_symbols(); ++c) {
            if (auto sink = zero_sink(d, c)) {
                step.letters.push_back(d.alphabet[c]);
                step.accepting = d.accepting[*sink] != 0;
            } else {
                keep.push_back(c);
            }
        }
        if (step.letters.empty() || keep.empty()) break;
        const Dfa r = restrict_letters(d, keep);
        std::vector<Symbol> kept;
        for (Symbol a : keep) kept.push_back(z.kept[a]);
        z.kept = std::move(kept);
        z.reduced = minimize(r);  // drops the states only zero letters reach
        z.steps.push_back(std::move(step));
    }
    if (z.steps.empty()) return std::nullopt;
    return z;
}

ltl::Formula lift_zero_formula(ltl::Formula f, const ZeroLetters& z) {
    for (auto s = z.steps.rbegin(); s != z.steps.rend(); ++s) {
        const ltl::Formula seen = ltl::Formula::past(any_of(s->letters));  // a zero letter occurs (at EOS)
        f = s->accepting ? ltl::Formula::disj(seen, f) : ltl::Formula::conj(ltl::Formula::neg(seen), f);
    }
    return f;
}

WindowDecision lift_zero_decision(WindowDecision reduced, const ZeroLetters& z, const Dfa& minimal, unsigned k,
                                  const WindowOptions& options) {
    std::string letters, over;
    for (const std::string& a : z.letters()) letters += (letters.empty() ? "" : ", ") + a;
    for (const std::string& a : z.reduced.alphabet) over += (over.empty() ? "" : ", ") + a;
    const bool one = z.letters().size() == 1;
    const std::string opening = letters + (one ? " is a zero letter" : " are zero letters") +
                                " (every state goes to one sink on it; Proposition 10.10, docs/WINDOWS.md §10), so the question is "
                                "asked of the words over {" + over + "}: ";
    Certificate& c = reduced.certificate;
    if (auto w = lifted_yes(reduced, minimal, k, true, options,
                            opening + c.fact + "; the words with a zero letter end in its sink (P of the zero letters)", "zero_letters",
                            [&](ltl::Formula f) { return lift_zero_formula(f, z); }))
        return std::move(*w);
    // Otherwise (a formula over the cap once lifted, or none) the certificate stands for the words
    // over the kept letters, and the checker removes Z first.
    rename_words(c, [&](Symbol s) { return z.kept.at(s); });
    if (!c.window) c.window = WindowFields{};
    c.window->zero_letters = z.letters();
    c.fact = opening + c.fact;
    return reduced;
}

}  // namespace ltlkit::automata::algebra
