"""setuptools glue for `pip install .` (pyproject.toml): builds the extension ltlkit._ltlkit with
CMake (only that target, the neural part and the tests left out) and packages python/ltlkit.
The version is CMake's project(VERSION), the one source of truth. LTLKIT_CMAKE_ARGS adds options
to the CMake configure step (ccache is used when it is on PATH); LTLKIT_CMAKE_BUILD_DIR takes the
module from an existing, configured build folder instead (a quick reinstall)."""
import importlib.util
import os
import re
import shlex
import shutil
import subprocess
import sys


def check_python():
    """`pip install --no-build-isolation --no-index .` downloads nothing, so the Python that runs it must
    already have setuptools, wheel and numpy: Debian 12's /usr/bin/python3 with python3-setuptools,
    python3-wheel and python3-numpy (docs/PYTHON.md). Another Python (pyenv, conda) without them would
    fail later with "invalid command 'bdist_wheel'"; say so first, in one line."""
    missing = [m for m in ("setuptools", "wheel", "numpy") if importlib.util.find_spec(m) is None]
    if missing:
        sys.exit(f"ltlkit: error: {sys.executable} (Python {sys.version.split()[0]}) has no "
                 f"{', '.join(missing)}, which the offline pip install needs: use Debian's /usr/bin/python3 "
                 "(make deps installs python3-setuptools, python3-wheel, python3-numpy), e.g. "
                 "/usr/bin/python3 -m venv --system-site-packages ~/venvs/ltlkit && "
                 "~/venvs/ltlkit/bin/pip install --no-build-isolation --no-index . (docs/PYTHON.md)")


check_python()

from setuptools import Extension, setup  # noqa: E402 (after the check, which names what is missing)
from setuptools.command.build_ext import build_ext  # noqa: E402

ROOT = os.path.dirname(os.path.abspath(__file__))


def project_version():
    with open(os.path.join(ROOT, "CMakeLists.txt"), encoding="utf-8") as f:
        return re.search(r"project\(ltlkit VERSION ([0-9][0-9.]*)", f.read()).group(1)


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        # LTLKIT_CMAKE_BUILD_DIR: an already configured ltlkit build folder whose _ltlkit target is
        # built and taken (as configured there); else a fresh one in build-pip/.
        build = os.environ.get("LTLKIT_CMAKE_BUILD_DIR")
        if not build:
            build = os.path.abspath(os.path.join(self.build_temp, "cmake"))
            args = [f"-DPython3_EXECUTABLE={sys.executable}", "-DCMAKE_BUILD_TYPE=Release", "-DLTLKIT_WITH_TORCH=OFF",
                    "-DLTLKIT_BUILD_TESTS=OFF"]
            if shutil.which("ninja"):
                args += ["-G", "Ninja"]
            if shutil.which("ccache"):
                args.append("-DCMAKE_CXX_COMPILER_LAUNCHER=ccache")
            args += shlex.split(os.environ.get("LTLKIT_CMAKE_ARGS", ""))
            subprocess.run(["cmake", "-S", ROOT, "-B", build, *args], check=True)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", str(os.cpu_count() or 1))
        subprocess.run(["cmake", "--build", build, "--target", "_ltlkit", "-j", jobs], check=True)
        built = os.path.join(build, "python", "ltlkit")
        so = [f for f in os.listdir(built) if f.startswith("_ltlkit") and f.endswith(".so")]
        if len(so) != 1:
            raise RuntimeError(f"CMake built no single _ltlkit extension in {built}: {so}")
        target = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(os.path.join(built, so[0]), target)


setup(
    version=project_version(),
    packages=["ltlkit"],
    package_dir={"": "python"},
    package_data={"ltlkit": ["py.typed", "*.pyi"]},
    ext_modules=[Extension("ltlkit._ltlkit", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    options={"build": {"build_base": "build-pip"}},  # not ./build, the usual CMake build folder
    zip_safe=False,
)
