#!/usr/bin/env python3
"""Checks that no file of the library includes a file of a higher layer.

The layers come from the build (build/layers.txt, written by cmake/HpartLayers.cmake from the
hpart_layer() calls in src/*/CMakeLists.txt): each layer owns folders of src/ and public headers
of include/hpart/, and may include only its own files and those of the layers below it. The
compiler enforces the same rule for the files it compiles (each layer's include path holds only
what it may see); this check also covers headers nobody includes and code built only with CUDA,
and names every offending line at once. Every private include must name one file as
"folder/file.hpp" from src/ (no paths relative to the including file).

usage: check_layers.py BUILD_DIR SOURCE_DIR     exit 0: clean, 1: violations (listed)
       check_layers.py --self-test              the check finds an upward include it is shown
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def read_layers(path):
    layers = {}
    for line in open(path):
        if line.startswith('#') or not line.strip():
            continue
        name, folders, headers, visible = (part.split() for part in line.split('|'))
        layers[name[0]] = {'folders': folders, 'headers': headers, 'visible': set(visible)}
    return layers


def self_test():
    """A two-layer tree whose lower layer includes the higher one's header and file: both found."""
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        os.makedirs(os.path.join(d, 'src', 'low'))
        os.makedirs(os.path.join(d, 'src', 'high'))
        os.makedirs(os.path.join(d, 'include', 'hpart'))
        with open(os.path.join(d, 'layers.txt'), 'w') as f:
            f.write('low | low | low.hpp | low\nhigh | high | high.hpp | high low\n')
        with open(os.path.join(d, 'src', 'low', 'a.cpp'), 'w') as f:
            f.write('#include "low/a.hpp"\n#include "high/b.hpp"\n#include "hpart/high.hpp"\n#include "a.hpp"\n')
        for rel in ('src/low/a.hpp', 'src/high/b.hpp', 'include/hpart/low.hpp', 'include/hpart/high.hpp'):
            open(os.path.join(d, rel), 'w').write('#pragma once\n#include "hpart/low.hpp"\n')
        found = check(d, d)[0]
    assert len(found) == 3, found
    print('check_layers self-test: the upward file and header includes and the bare name were found')
    return 0


def main():
    if sys.argv[1:] == ['--self-test']:
        return self_test()
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    problems, files, layers = check(sys.argv[1], sys.argv[2])
    for p in problems:
        print(p)
    print(f'check_layers: {files} files, {layers} layers, {len(problems)} problems')
    return 1 if problems else 0


def check(build, source):
    layers = read_layers(os.path.join(build, 'layers.txt'))
    folder_layer = {f: name for name, l in layers.items() for f in l['folders']}
    header_layer = {h: name for name, l in layers.items() for h in l['headers']}

    def owner_of_include(target):
        if target.startswith('hpart/'):
            rest = target[len('hpart/'):]
            return header_layer.get(rest.split('/')[0] if '/' in rest else rest), 'header'
        return folder_layer.get(target.split('/')[0]) if '/' in target else None, 'folder'

    files = []  # (path shown, owning layer)
    for root, _, names in os.walk(os.path.join(source, 'src')):
        for n in names:
            if n.endswith(('.hpp', '.cpp', '.cu', '.h')):
                p = os.path.join(root, n)
                top = os.path.relpath(p, os.path.join(source, 'src')).split(os.sep)[0]
                files.append((p, folder_layer.get(top)))
    inc = os.path.join(source, 'include', 'hpart')
    for root, _, names in os.walk(inc):
        for n in names:
            p = os.path.join(root, n)
            rel = os.path.relpath(p, inc)
            if rel == 'hpart.hpp':
                continue  # the umbrella header includes everything by design
            files.append((p, header_layer.get(rel.split(os.sep)[0])))

    problems = []
    for path, layer in sorted(files):
        shown = os.path.relpath(path, source)
        if layer is None:
            problems.append(f'{shown}: belongs to no layer (add its folder or header to an hpart_layer call)')
            continue
        text = open(path, encoding='utf-8', errors='replace').read()
        for m in INCLUDE.finditer(text):
            target = m.group(1)
            line = text.count('\n', 0, m.start()) + 1
            owner, kind = owner_of_include(target)
            if owner is None:
                if '/' not in target:
                    problems.append(f'{shown}:{line}: "{target}" must name its folder ("folder/{target}")')
                else:
                    problems.append(f'{shown}:{line}: "{target}" is in no layer')
            elif owner not in layers[layer]['visible']:
                problems.append(f'{shown}:{line}: layer {layer} includes "{target}" of the higher layer {owner}')
    return problems, len(files), len(layers)


if __name__ == '__main__':
    sys.exit(main())
