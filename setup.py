"""The package map: the repository's top-level folders install as one ``warlog`` package.

``domain/`` installs as ``warlog.domain``, ``eventstore/`` as ``warlog.eventstore`` and so on, so
that nothing but ``warlog`` lands at the top of site-packages. Everything else about the
distribution is in pyproject.toml.
"""

from setuptools import find_packages, setup

#: the folders that are parts of the ``warlog`` package
PARTS = ("arbiter", "cli", "domain", "eventstore", "fixtures", "fuzz", "projections", "server")

packages = ["warlog"]
package_dir = {"warlog": "warlog"}
for part in PARTS:
    package_dir[f"warlog.{part}"] = part
    packages += [f"warlog.{part}", *(f"warlog.{part}.{sub}" for sub in find_packages(part))]

setup(packages=packages, package_dir=package_dir)
