#!/usr/bin/env python3
"""Checks the size rules of the library: no file above MAX_FILE lines, no function above MAX_FUNCTION.

Scans the C++ and CUDA files under src/ and include/hpart/ of SOURCE_DIR. A file's size is its
line count (`wc -l`). A function is found by matching braces after comments, string and character
literals and preprocessor lines are blanked: a `{` at file, namespace or class scope whose text since
the last `;`, `{` or `}` holds a `(` and no `=` opens a body (a function, a method, an operator or a
constructor; braces of a constructor's member initialiser list are skipped). The function's size
runs from the line its declaration starts on to its closing brace. Lambdas and local classes count
toward the function that holds them. A heuristic: it is meant to catch long functions, not to parse C++.

usage: check_sizes.py [SOURCE_DIR]   exit 0: clean, 1: offenders (listed)
       check_sizes.py --self-test    the check finds a long function and a long file it is shown
"""
import os
import re
import sys

MAX_FILE = 500
MAX_FUNCTION = 120
SUFFIXES = ('.hpp', '.cpp', '.h', '.cu', '.cuh')
SCOPE_WORDS = re.compile(r'\b(namespace|class|struct|union|enum)\b|\bextern\s+"C"')
TRAILING = {'const', 'noexcept', 'override', 'final', 'mutable', 'volatile', 'try'}


def blank(text):
    """The text with comments, literals and preprocessor lines replaced by spaces (newlines kept)."""
    out = []
    i, n = 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if line_start and c == '#' or (line_start and c in ' \t' and text[i:].lstrip(' \t').startswith('#')):
            # a preprocessor line, with its continuations
            while i < n and text[i] != '\n':
                if text[i] == '\\' and i + 1 < n and text[i + 1] == '\n':
                    out.append(' \n')
                    i += 2
                    continue
                out.append(' ')
                i += 1
            continue
        if c == '\n':
            out.append(c)
            i += 1
            line_start = True
            continue
        line_start = False
        if text.startswith('//', i):
            j = text.find('\n', i)
            j = n if j < 0 else j
            out.append(' ' * (j - i))
            i = j
            continue
        if text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r'[^\n]', ' ', text[i:j]))
            i = j
            continue
        m = re.match(r'(?:u8|u|U|L)?R"([^()\\ ]{0,16})\(', text[i:i + 24])
        if m and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == '_')):
            end = text.find(')' + m.group(1) + '"', i + m.end())
            j = n if end < 0 else end + len(m.group(1)) + 2
            out.append(re.sub(r'[^\n]', ' ', text[i:j]))
            i = j
            continue
        if c == "'" and i > 0 and text[i - 1].isalnum() and i + 1 < n and text[i + 1].isalnum():
            out.append(' ')  # a digit separator: 1'000
            i += 1
            continue
        if c in '"\'':
            j = i + 1
            while j < n and text[j] != c and text[j] != '\n':
                j += 2 if text[j] == '\\' else 1
            j = min(j + 1, n)
            out.append(re.sub(r'[^\n]', ' ', text[i:j]))
            i = j
            continue
        out.append(c)
        i += 1
    return ''.join(out)


def top_level(text):
    """Text with the inside of every (...) and [...] group dropped (a crude depth-0 view)."""
    depth, out = 0, []
    for c in text:
        if c in '([':
            if depth == 0:
                out.append(c)
            depth += 1
        elif c in ')]':
            depth = max(0, depth - 1)
            if depth == 0:
                out.append(c)
        elif depth == 0:
            out.append(c)
    return ''.join(out)


NOT_NAMES = {'decltype', 'alignas', 'noexcept', 'sizeof', 'requires', '__attribute__', 'static_assert'}
NAME_BEFORE_PAREN = re.compile(r'((?:[A-Za-z_]\w*(?:<[^()<>]*>)?::)*(?:operator[^\w\s(][^\s(]*|operator\(\)|'
                               r'operator\s\w+|~?[A-Za-z_]\w*)(?:<[^()<>]*>)?)$')


def function_name(head):
    """The qualified name before the first '(' at parenthesis depth 0 that follows a name, or '?'."""
    flat = re.sub(r'\s*(::|<|>|,)\s*', r'\1', re.sub(r'\s+', ' ', head)).strip()
    depth = 0
    for k, c in enumerate(flat):
        if c == '(':
            if depth == 0:
                m = NAME_BEFORE_PAREN.search(flat[:k].rstrip())
                if m and m.group(1).split('<')[0] not in NOT_NAMES:
                    return m.group(1) + ('()' if m.group(1).endswith('operator') else '')
            depth += 1
        elif c == ')':
            depth = max(0, depth - 1)
    return '?'


def is_initialiser_brace(head):
    """A `{` that belongs to a constructor's member initialiser list (`) : a_{x}, b_{`)."""
    flat = top_level(head).rstrip()
    if not re.search(r'\)\s*(?:noexcept\s*)?:[^:]', flat + ' ') or ':' not in flat.split(')')[-1]:
        return False
    last = re.search(r'([A-Za-z_]\w*|>)\s*$', flat)
    return bool(last) and last.group(1) not in TRAILING and not re.search(r'->\s*[^)]*$', flat)


def functions(text):
    """(name, first line, last line) of each function body at file, namespace or class scope."""
    code = blank(text)
    found = []
    scopes = []  # one per open brace: 'scope', 'init', 'other', 'nested' or ('body', first line, name)
    head_start = 0  # offset where the current declaration's text starts
    parens = 0  # open parentheses of the declaration being read
    for i, c in enumerate(code):
        if c in '()':
            parens = max(0, parens + (1 if c == '(' else -1))
        if c not in '{};':
            continue
        inside = any(s != 'scope' for s in scopes)  # within a body, an initialiser or a braced value
        if c == '{' and inside:
            scopes.append('nested')
        elif c == '{':
            head = code[head_start:i]
            flat = top_level(head)
            if parens > 0 or is_initialiser_brace(head):  # a default argument's `{}`, a member's `a_{x}`
                scopes.append('init')
            elif SCOPE_WORDS.search(flat) and '(' not in flat.replace('extern', ''):
                scopes.append('scope')
                head_start = i + 1
            elif '(' in head and '=' not in re.sub(r'operator\s*(\(\)|[^\s(]+)', '', flat):
                first = head_start + len(head) - len(head.lstrip())
                scopes.append(('body', code.count('\n', 0, first) + 1, function_name(head)))
            else:
                scopes.append('other')
        elif c == '}':
            kind = scopes.pop() if scopes else 'scope'
            if isinstance(kind, tuple):
                found.append((kind[2], kind[1], code.count('\n', 0, i) + 1))
            if not any(s != 'scope' for s in scopes) and kind != 'init':
                head_start = i + 1
        elif not inside:
            head_start = i + 1
    return found


def check(source, max_file=MAX_FILE, max_function=MAX_FUNCTION):
    problems, files, funcs = [], 0, 0
    roots = [os.path.join(source, 'src'), os.path.join(source, 'include', 'hpart')]
    for root in roots:
        for dirpath, _, names in sorted(os.walk(root)):
            for name in sorted(names):
                if not name.endswith(SUFFIXES):
                    continue
                path = os.path.join(dirpath, name)
                shown = os.path.relpath(path, source)
                text = open(path, encoding='utf-8', errors='replace').read()
                files += 1
                lines = text.count('\n') + (0 if text.endswith('\n') or not text else 1)
                if lines > max_file:
                    problems.append(f'{shown}: {lines} lines (limit {max_file})')
                for fname, first, last in functions(text):
                    funcs += 1
                    if last - first + 1 > max_function:
                        problems.append(f'{shown}:{first}: {fname} is {last - first + 1} lines '
                                        f'(limit {max_function})')
    return problems, files, funcs


def self_test():
    """A tree with one long function among tricky short ones, and one long file: exactly those found."""
    import tempfile
    body = '\n'.join(f'  x += {k};' for k in range(125))
    short = '\n'.join(f'  y += {k};' for k in range(20))
    src = f'''#include "a/b.hpp"
#define BRACE {{
namespace hp {{
namespace {{
const int table[] = {{1, 2,
  3}};
struct S {{
  S(int a) : a_{{a}}, b_(a) {{ a_ += 1; }}
  int get() const {{ return a_; }}
  S& operator=(const S& o) {{ a_ = o.a_; return *this; }}
  void set(int v, const char* why = {{}}) {{ a_ = v; }}
  int a_, b_;
}};
}}  // namespace
// a comment with a brace {{
int long_one(int x) {{
  const char* s = "}} {{";
  char c = '{{';
  auto f = [&](int z) {{ return z + 1'000; }};
{body}
  return x;
}}
template <typename T>
T Holder<T>::short_one(std::vector<T> v)
{{
  int y = 0;
{short}
  return y;
}}
}}  // namespace hp
'''
    with tempfile.TemporaryDirectory() as d:
        os.makedirs(os.path.join(d, 'src', 'a'))
        os.makedirs(os.path.join(d, 'include', 'hpart'))
        open(os.path.join(d, 'src', 'a', 'b.cpp'), 'w').write(src)
        open(os.path.join(d, 'include', 'hpart', 'big.hpp'), 'w').write('#pragma once\n' + 'int v;\n' * 600)
        problems, _, funcs = check(d)
        names = [f for f, _, _ in functions(src)]
    assert names == ['S', 'get', 'operator=', 'set', 'long_one', 'Holder<T>::short_one'], names
    assert len(problems) == 2, problems
    assert any('long_one is 131 lines' in p for p in problems), problems
    assert any('big.hpp: 601 lines' in p for p in problems), problems
    print('check_sizes self-test: the long function and the long file were found, nothing else')
    return 0


def main():
    if sys.argv[1:] == ['--self-test']:
        return self_test()
    if len(sys.argv) > 2:
        sys.exit(__doc__)
    source = sys.argv[1] if len(sys.argv) == 2 else os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
    problems, files, funcs = check(source)
    for p in problems:
        print(p)
    print(f'check_sizes: {files} files, {funcs} functions, {len(problems)} over the limits '
          f'({MAX_FILE} lines a file, {MAX_FUNCTION} a function)')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
