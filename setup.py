"""The optional native core (issue 16): a C extension built with the machine's compiler.

Everything else about the package is in pyproject.toml. ``optional=True``: without a compiler (or
Python's headers) the build says so and goes on, and unotable runs in pure Python
(``unotable.COMPILED`` is then False).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "unotable.native._core",
            sources=["src/unotable/native/_core.c"],
            depends=[
                f"src/unotable/native/{h}.h"
                for h in ("rules", "policies", "loops", "pyrandom", "envloop", "search")
            ],
            extra_compile_args=[
                "-O3",
                "-std=c99",
                "-Wall",
                "-Wno-missing-field-initializers",
                "-ffp-contract=off",
            ],
            optional=True,
        )
    ]
)
