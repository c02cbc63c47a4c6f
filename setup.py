"""The compiled solver kernel (analysis/solver/kernel.c); everything else is in pyproject.toml."""

from setuptools import Extension, setup

# optional: without a C compiler the install goes on and the pure-Python search serves
kernel = Extension("analysis.solver.kernel", ["analysis/solver/kernel.c"], depends=["analysis/solver/kernel_search.h"],
                   extra_compile_args=["-O3", "-std=c11"], optional=True)
# the evaluator's compiled rollout model; it includes the kernel's search (kernel_search.h)
rollout = Extension("analysis.evaluate.crollout", ["analysis/evaluate/rollout.c"],
                    depends=["analysis/solver/kernel_search.h"], extra_compile_args=["-O3", "-std=c11"], optional=True)
setup(ext_modules=[kernel, rollout])
