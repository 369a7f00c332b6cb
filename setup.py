"""`pip install .`: the extension module hpart._hpart is built by the project's CMake (target
hpart_python) with libhpart static inside it, then copied into the wheel beside python/hpart.

Environment: HPART_CMAKE_ARGS adds CMake arguments (e.g. "-DHPART_WITH_HDF5=OFF"); CMAKE_BUILD_PARALLEL_LEVEL
sets the build's parallelism; the build directory is build/pip unless HPART_PIP_BUILD_DIR says otherwise.
"""
import glob
import os
import shlex
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build = os.environ.get("HPART_PIP_BUILD_DIR", os.path.join(ROOT, "build", "pip"))
        args = [
            "cmake", "-S", ROOT, "-B", build, "-DCMAKE_BUILD_TYPE=Release",
            "-DBUILD_SHARED_LIBS=OFF", "-DHPART_BUILD_TESTS=OFF", "-DHPART_BUILD_APPS=OFF",
            "-DHPART_WITH_PYTHON=ON", f"-DPython3_EXECUTABLE={sys.executable}",
        ] + shlex.split(os.environ.get("HPART_CMAKE_ARGS", ""))
        subprocess.run(args, check=True)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", str(os.cpu_count() or 2))
        subprocess.run(["cmake", "--build", build, "--target", "hpart_python", "-j", jobs], check=True)
        built = glob.glob(os.path.join(build, "python", "hpart", "_hpart*.so"))
        if len(built) != 1:
            raise RuntimeError(f"expected one _hpart module in {build}/python/hpart, found {built}")
        dest = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        shutil.copy2(built[0], dest)


setup(ext_modules=[CMakeExtension("hpart._hpart")], cmdclass={"build_ext": CMakeBuild})
