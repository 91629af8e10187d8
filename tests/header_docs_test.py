#!/usr/bin/env python3
"""Every public function of include/totex.h and include/totex/*.h has a
docstring (/** ... */ right before it) that is a contract: an @param naming
each parameter (several may share one @param line: "@param from, to ...", or
"@param hops the step's @p count hops"; "The other parameters are X()'s" /
"as X()" hands the rest to X's docstring) and, unless it returns void, an
@return (or "the return value ... X()'s").

Usage: header_docs_test.py INCLUDE_DIR. Prints one line per function that
falls short (file:line: name: what is missing); exit 1 if any, 2 on bad use.
It reads the headers as text: a declaration is a statement at file scope
(inside extern "C" too) that names a function totex_*(...).
"""
import glob
import os
import re
import sys

TOKENS = re.compile(r'/\*\*(.*?)\*/|/\*.*?\*/|//[^\n]*|#[^\n]*(?:\\\n[^\n]*)*|;|\{|\}', re.S)
DECL = re.compile(r'(?:extern\s+)?(.*?)\b(totex_\w+)\s*\((.*)\)\s*(?:__attribute__.*)?$')


def param_names(params):
    names = []
    if params.strip() in ('void', ''):
        return names
    for p in re.split(r',(?![^()]*\))', params):
        p = p.strip()
        if p == '...':
            continue
        fn = re.search(r'\(\s*\*\s*(\w+)\s*\)', p)  # a function pointer's name
        if fn:
            names.append(fn.group(1))
            continue
        last = re.findall(r'(\w+)\s*(?:\[[^\]]*\])*\s*$', p)
        if last:
            names.append(last[0])
    return names


def problems(ret, params, doc):
    if doc is None:
        return ['no docstring']
    doc = ' '.join(re.sub(r'\n\s*\*(?!/)', ' ', doc).split())
    out = []
    if not re.search(r'other parameters|parameters are those|arguments are those', doc):
        covered = set()
        for seg in re.findall(r'@param\b(.*?)(?=@param\b|@return\b|$)', doc):
            covered.update(re.findall(r'\w+', seg))
        out += ['no @param ' + n for n in param_names(params) if n not in covered]
    if ret != 'void' and '@return' not in doc and 'return value' not in doc:
        out.append('no @return')
    return out


def check(path):
    src = open(path, encoding='utf-8').read()
    found, bad = 0, []
    doc, doc_end = None, -1
    depth, externc, start = 0, 0, 0
    for m in TOKENS.finditer(src):
        t = m.group(0)
        if t.startswith('/**'):
            if depth == 0:
                doc, doc_end = m.group(1), m.end()
            start = m.end()
        elif t.startswith('#'):
            start = m.end()
        elif t.startswith('/*') or t.startswith('//'):
            pass
        elif t == '{':
            if depth == 0 and src[start:m.start()].strip().endswith('extern "C"'):
                externc += 1
                start = m.end()
            else:
                depth += 1
        elif t == '}':
            if depth == 0 and externc:
                externc -= 1
            else:
                depth -= 1
            start = m.end()
        else:  # ';'
            stmt, start = src[start:m.start()], m.end()
            if depth != 0:
                continue
            s = ' '.join(re.sub(r'/\*.*?\*/', '', stmt, flags=re.S).split())
            d = DECL.match(s)
            if not d or s.startswith('typedef'):
                continue
            found += 1
            # the docstring counts when nothing but this declaration stands between them
            mine = doc if doc is not None and ';' not in src[doc_end:m.start()] else None
            p = problems(d.group(1).strip(), d.group(3), mine)
            if p:
                line = src[:m.start()].count('\n') + 1
                bad.append(f'{path}:{line}: {d.group(2)}: ' + ', '.join(p))
    return found, bad


def main():
    if len(sys.argv) != 2 or not os.path.isdir(sys.argv[1]):
        print('usage: header_docs_test.py INCLUDE_DIR', file=sys.stderr)
        return 2
    inc = sys.argv[1]
    paths = sorted(glob.glob(os.path.join(inc, 'totex', '*.h'))) + [os.path.join(inc, 'totex.h')]
    total, bad = 0, []
    for path in paths:
        if os.path.exists(path):
            n, b = check(path)
            total, bad = total + n, bad + b
    for line in bad:
        print(line)
    print(f'header_docs: {total} public functions, {len(bad)} without @param / @return for all they take and give')
    if total == 0:
        print('header_docs: no public function found', file=sys.stderr)
        return 1
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
