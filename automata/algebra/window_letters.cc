// Letters that act alike (window_letters.hh, docs/WINDOWS.md §10, Proposition 10.9).
#include "automata/algebra/window_letters.hh"

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

void lift_words(Certificate& c, const LetterClasses& m) {
    if (c.family) {
        WordFamily& f = *c.family;
        for (Word* w : {&f.x, &f.p, &f.y, &f.z, &f.e, &f.q}) *w = lift_word(*w, m);
        if (f.x2) f.x2 = lift_word(*f.x2, m);
    }
    for (auto& [u, v] : c.pairs) u = lift_word(u, m), v = lift_word(v, m);
    if (c.window && c.window->x) c.window->x = lift_word(*c.window->x, m);
}

}  // namespace

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
    Dfa r;
    for (Symbol a : m.kept) r.alphabet.push_back(minimal.alphabet[a]);
    r.initial = minimal.initial;
    r.accepting = minimal.accepting;
    r.delta.resize(minimal.num_states() * m.kept.size());
    for (State q = 0; q < minimal.num_states(); ++q)
        for (Symbol i = 0; i < m.kept.size(); ++i) r.delta[q * m.kept.size() + i] = minimal.next(q, m.kept[i]);
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
    if (reduced.answer == Answer::Yes && c.formula) {
        if (auto f = ltl::parse_formula(*c.formula)) {
            const std::string route = c.window && c.window->route ? *c.window->route : "formula";
            if (auto w = window_yes_by_formula(minimal, lift_formula(*f, m, minimal.alphabet), k, hybrid, options,
                                               opening + c.fact + "; each kept letter widened to its class",
                                               "merged_letters:" + route)) {
                w->certificate.window->complete = c.window ? c.window->complete : std::nullopt;
                return std::move(*w);
            }
        }
        // Cannot happen (the widened formula defines the language): the answer stands without a formula.
        c.formula.reset();
        c.formula_omitted = "the reduced formula, widened, did not compile back to the language";
    }
    lift_words(c, m);
    c.fact = opening + c.fact;
    return reduced;
}

}  // namespace ltlkit::automata::algebra
