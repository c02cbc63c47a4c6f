"""The compiled solver kernel (analysis/_kernel.c); everything else is in pyproject.toml."""

from setuptools import Extension, setup

setup(ext_modules=[Extension("analysis._kernel", ["analysis/_kernel.c"], extra_compile_args=["-O2", "-std=c11"],
                           optional=True)])  # without a C compiler the pure-Python search serves
