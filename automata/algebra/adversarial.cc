#include "automata/algebra/adversarial.hh"

namespace ltlkit::automata::algebra {

std::optional<AdversarialSpec> adversarial_spec(const ArchPrediction& p, const std::vector<std::string>& alphabet) {
    if (p.prediction != Prediction::Fails || !p.witness) return std::nullopt;
    const WordFamily& wf = *p.witness;
    AdversarialFamily f{wf, p.reason, ""};
    auto quoted = [&](const Word& w) {  // appended, not "'" + word: GCC 12 -Wrestrict misfires on that
        std::string s = "'";
        s += format_word(alphabet, w);
        return s += "'";
    };
    if (wf.extended() && !wf.q.empty()) {
        f.extra = "q=" + quoted(wf.q);
        f.extra += " (the words are x (p^r q^r)^r p^r y and x (p^r q^r)^r p^r q^r z)";
    } else if (wf.extended()) {
        f.extra = "x2=" + (wf.x2 ? quoted(*wf.x2) : std::string("none"));
        f.extra += "; e=" + quoted(wf.e);
        f.extra += " (<e^r> in p, y, z stands for e^r)";
    }
    return AdversarialSpec{to_string(p.arch), {f}};
}

}  // namespace ltlkit::automata::algebra
