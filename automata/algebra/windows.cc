// Windows k >= 2 (SPEC §5, issue 4). Placeholder: every question is answered "unknown" until the
// search lands, so that others can link against the interface.
#include "automata/algebra/windows.hh"

namespace ltlkit::automata::algebra {

namespace {
WindowDecision not_implemented(const std::string& cls, unsigned k) {
    WindowDecision d;
    d.answer = Answer::Unknown;
    d.certificate.class_id = cls + ":" + std::to_string(k);
    d.certificate.member = false;
    d.certificate.kind = "unknown";
    d.certificate.fact = "the window search is not implemented yet";
    return d;
}
}  // namespace

WindowDecision decide_local_k(const Dfa&, unsigned k, const WindowOptions&) {
    return not_implemented("local_k", k);
}

WindowDecision decide_hybrid_k(const Dfa&, unsigned k, const WindowOptions&) {
    return not_implemented("hybrid_k", k);
}

Result<bool> check_window_certificate(const std::string&, std::string* explanation) {
    if (explanation) *explanation = "window certificates are not checkable yet";
    return make_error("window certificate checking is not implemented yet");
}

}  // namespace ltlkit::automata::algebra
