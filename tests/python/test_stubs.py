"""The type stubs (python/ltlkit/__init__.pyi, with py.typed): they parse, and every public name of
the running module has an entry with the same parameters (names, order, defaults) as the module."""
import ast
import inspect
import os
import types

import ltlkit

STUB = os.path.join(os.path.dirname(ltlkit.__file__), "__init__.pyi")
CLASSES = ["Dfa", "Formula", "Sampler", "Split", "Dataset", "Error"]


def stub_tree():
    with open(STUB, encoding="utf-8") as f:
        return ast.parse(f.read(), STUB)


def top_level(tree):
    names = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names[node.name] = node
        elif isinstance(node, ast.AnnAssign):
            names[node.target.id] = node
        elif isinstance(node, ast.Assign):
            for t in node.targets:
                names[t.id] = node
    return names


def public_names():
    names = {n for n in dir(ltlkit) if not n.startswith("_") and not isinstance(getattr(ltlkit, n), types.ModuleType)}
    return names | set(ltlkit.__all__) | {"__version__"}


def split_top(text):
    """Splits 'a: T[x, y] = 1, b: str' at top-level commas."""
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur)
    return [p.strip() for p in parts]


def runtime_params(obj, name):
    """[(name, default or inspect.Parameter.empty)] of a Python function or a pybind11 one (from the
    signature line pybind11 writes first in the docstring); self is left out."""
    try:
        sig = inspect.signature(obj)
        return [(p.name, p.default) for p in sig.parameters.values() if p.name != "self"]
    except (TypeError, ValueError):
        pass
    first = (obj.__doc__ or "").splitlines()[0]
    assert first.startswith(name + "("), f"{name}: no signature line in its docstring: {first!r}"
    inner = first[len(name) + 1:first.rindex(") ->")]
    out = []
    for part in split_top(inner):
        pname, _, default = part.partition("=")
        pname = pname.split(":")[0].strip()
        if pname == "self":
            continue
        out.append((pname, ast.literal_eval(default.strip()) if default else inspect.Parameter.empty))
    return out


def stub_params(fn):
    a = fn.args
    params = [*a.posonlyargs, *a.args]
    defaults = [inspect.Parameter.empty] * (len(params) - len(a.defaults)) + [ast.literal_eval(d) for d in a.defaults]
    out = [(p.arg, d) for p, d in zip(params, defaults)]
    out += [(p.arg, ast.literal_eval(d) if d else inspect.Parameter.empty) for p, d in zip(a.kwonlyargs, a.kw_defaults)]
    return [(n, d) for n, d in out if n != "self"]


def test_every_public_name_has_a_stub():
    names = top_level(stub_tree())
    missing = sorted(public_names() - set(names))
    assert not missing, f"public names without a stub in {STUB}: {missing}"
    assert os.path.exists(os.path.join(os.path.dirname(STUB), "py.typed"))


def test_stub_functions_have_the_module_parameters():
    names = top_level(stub_tree())
    checked = 0
    for name in sorted(public_names()):
        obj = getattr(ltlkit, name)
        if callable(obj) and not isinstance(obj, type):
            assert isinstance(names[name], ast.FunctionDef), name
            assert stub_params(names[name]) == runtime_params(obj, name), name
            checked += 1
    assert checked >= 25


def test_stub_classes_have_the_module_members():
    names = top_level(stub_tree())
    for cname in CLASSES:
        cls = getattr(ltlkit, cname)
        node = names[cname]
        members = {}
        for n in node.body:
            if isinstance(n, ast.FunctionDef):
                members[n.name] = n
            elif isinstance(n, ast.AnnAssign):
                members[n.target.id] = n
        public = {m for m in vars(cls) if not m.startswith("_")} | ({"__init__"} if "__init__" in vars(cls) else set())
        if cname == "Error":
            public = {"exit_code", "message", "line", "column", "origin", "rendered"}
            e = None
            try:
                ltlkit.parse_formula("(")
            except ltlkit.Error as caught:
                e = caught
            assert all(hasattr(e, m) for m in public)
        missing = sorted(public - set(members))
        assert not missing, f"{cname}: members without a stub: {missing}"
        for m, n in members.items():
            if isinstance(n, ast.FunctionDef) and not any(
                    isinstance(d, ast.Name) and d.id == "property" for d in n.decorator_list) and m in vars(cls):
                if (m.startswith("__") and m != "__init__") or (m == "__init__" and cname in ("Split", "Dataset")):
                    continue  # protocol methods; the internal constructors of the read-back objects
                want = runtime_params(getattr(cls, m), m)
                assert stub_params(n) == want, f"{cname}.{m}"


def test_version_is_the_projects():
    import re
    from conftest import SOURCE_DIR, run_cli
    with open(os.path.join(SOURCE_DIR, "CMakeLists.txt"), encoding="utf-8") as f:
        want = re.search(r"project\(ltlkit VERSION ([0-9.]+)", f.read()).group(1)
    assert ltlkit.__version__ == want
    assert want in run_cli("--version").stdout
