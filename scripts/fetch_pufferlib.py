"""Fetches PufferLib 3.0.0's Python code, unbuilt, for the adapter test.

PufferLib 3.0.0 is published only as an sdist whose build needs torch and downloads raylib, so it
cannot be pip-installed on our machines; but the parts an environment meets (``PufferEnv``,
``pufferlib.vector`` with the Serial backend) are plain Python. This downloads the sdist from
PyPI, checks its sha256 against the index, and extracts its ``.py`` files into DEST, for
``PYTHONPATH``. On any failure it says why and exits 0: the test then skips.

    python scripts/fetch_pufferlib.py target/pufferlib-src
"""

import hashlib
import io
import re
import sys
import tarfile
import urllib.request

VERSION = "3.0.0"
INDEX = "https://pypi.org/simple/pufferlib/"


def main() -> int:
    dest = sys.argv[1] if len(sys.argv) > 1 else "target/pufferlib-src"
    try:
        page = urllib.request.urlopen(INDEX, timeout=60).read().decode()
        match = re.search(rf'href="([^"#]*pufferlib-{re.escape(VERSION)}\.tar\.gz)#sha256=([0-9a-f]+)"', page)
        if not match:
            raise RuntimeError(f"no pufferlib-{VERSION}.tar.gz on {INDEX}")
        url, digest = match.groups()
        data = urllib.request.urlopen(url, timeout=300).read()
        if hashlib.sha256(data).hexdigest() != digest:
            raise RuntimeError("the download's sha256 differs from the index")
        prefix = f"pufferlib-{VERSION}/"
        with tarfile.open(fileobj=io.BytesIO(data)) as archive:
            members = []
            for member in archive.getmembers():
                name = member.name
                if member.isfile() and name.startswith(prefix + "pufferlib/") and name.endswith(".py") and ".." not in name:
                    member.name = name[len(prefix) :]
                    members.append(member)
            if hasattr(tarfile, "data_filter"):
                archive.extractall(dest, members=members, filter="data")
            else:  # pragma: no cover - Pythons before 3.11.4
                archive.extractall(dest, members=members)
        print(f"PufferLib {VERSION}'s Python code is in {dest} ({len(members)} files)")
    except Exception as error:  # noqa: BLE001 - any failure means: skip the test
        print(f"SKIP PufferLib {VERSION}: could not fetch it ({error})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
