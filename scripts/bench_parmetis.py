#!/usr/bin/python3
"""The same ParMETIS program (examples/parmetis/parmetis_caller.c) linked to libhpart_parmetis and
to PT-Scotch's ParMETIS layer (Debian's libptscotchparmetisv3, 32-bit SCOTCH_Num), on the shared
graphs, k 16 and 64, np 1, 2, 4, OMP_NUM_THREADS=1, the two libraries interleaved run by run.

  scripts/bench_parmetis.py [--build build] [--data ../shared/data/graphs] [--repeats 3] [--np 1 2 4]
                            [--preset fast|default|strong]

Prints a markdown table (edge cut counted by the caller from the gathered parts, the same way for
both; max part weight / average of the first weight; seconds of the ParMETIS_V3_PartKway call,
max over ranks, the median of the repeats; the cut is the median too, the imbalance the worst)
and the geometric means of hpart over PT-Scotch per rank count: over every case both finished,
and over the cases where both stayed within ubvec (1.05) on the first weight.
PT-Scotch's layer does not fill edgecut (it returns 0), hence the caller's own count.
"""
import argparse, math, os, statistics, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SCOTCH = '/usr/lib/x86_64-linux-gnu/scotch-int32'


def build(build_dir, out):
    src = os.path.join(ROOT, 'examples/parmetis/parmetis_caller.c')
    lib = os.path.join(build_dir, 'src/parmetis')
    # Both with MPI_THREAD_MULTIPLE: Debian's PT-Scotch is threaded and hangs at np 4 under plain
    # MPI_Init; the same flag for both keeps the program the same.
    hp = [os.environ.get('MPICC', 'mpicc'), '-O2', '-DCALLER_THREAD_MULTIPLE', src, '-o', os.path.join(out, 'caller_hpart'),
          '-I' + os.path.join(build_dir, 'include/hpart/parmetis'), '-L' + lib, '-lhpart_parmetis',
          '-Wl,-rpath,' + lib, '-Wl,-rpath,' + build_dir]
    # Scotch's parmetis.h declares neither idx_t nor IDX_T and redefines METIS's status enum:
    # metis.h first (what ParMETIS's own header does), SCOTCH_METIS_RETURN to skip the enum.
    sc = [os.environ.get('MPICC', 'mpicc'), '-O2', '-DCALLER_THREAD_MULTIPLE', src, '-o', os.path.join(out, 'caller_scotch'),
          '-I/usr/include/parmetis', '-include', 'metis.h', '-DSCOTCH_METIS_RETURN', '-L' + SCOTCH,
          '-lptscotchparmetisv3', '-lptscotch', '-lscotch', '-lptscotcherr', '-Wl,-rpath,' + SCOTCH]
    for cmd in (hp, sc):
        subprocess.run(cmd, check=True)


def run(exe, graph, k, np, timeout=60, preset=None):
    env = dict(os.environ, OMP_NUM_THREADS='1', OMPI_ALLOW_RUN_AS_ROOT='1', OMPI_ALLOW_RUN_AS_ROOT_CONFIRM='1')
    if preset:
        env['HPART_PARMETIS_PRESET'] = preset  # read by libhpart_parmetis only
    cmd = ['mpirun', '--oversubscribe', '--bind-to', 'none', '-np', str(np), exe, graph, str(k), '1.05', '1']
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout)
    except subprocess.TimeoutExpired:
        return 'timeout'
    if p.returncode != 0:
        return 'failed'

    f = p.stdout.split()
    return {'cut': int(f[f.index('counted') + 1]), 'imb': float(f[f.index('imbalance') + 1]),
            'sec': float(f[f.index('seconds') + 1])}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--build', default=os.path.join(ROOT, 'build'))
    ap.add_argument('--data', default=os.path.join(ROOT, '..', 'shared', 'data', 'graphs'))
    ap.add_argument('--repeats', type=int, default=3)
    ap.add_argument('--np', type=int, nargs='+', default=[1, 2, 4])
    ap.add_argument('--k', type=int, nargs='+', default=[16, 64])
    ap.add_argument('--out', default='/tmp/bench_parmetis')
    ap.add_argument('--preset', help="HPART_PARMETIS_PRESET for hpart's runs (fast, default, strong; "
                    "unset: the layer's own choice)")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    build(os.path.abspath(a.build), a.out)
    graphs = sorted(g for g in os.listdir(a.data) if g.endswith('graph'))
    libs = ('hpart', 'scotch')
    res = {}
    for np in a.np:
        for g in graphs:
            for k in a.k:
                for rep in range(a.repeats):
                    for lib in (libs if rep % 2 == 0 else libs[::-1]):  # interleaved, alternating first
                        r = run(os.path.join(a.out, 'caller_' + lib), os.path.join(a.data, g), k, np,
                                preset=a.preset if lib == 'hpart' else None)
                        res.setdefault((np, g, k, lib), []).append(r)
    print('| np | graph | k | hpart cut | PT-Scotch cut | hpart imb | PT-Scotch imb | hpart s | PT-Scotch s |')
    print('|---|---|---|---|---|---|---|---|---|')
    ratios = {}
    for np in a.np:
        for g in graphs:
            for k in a.k:
                row, ok = {}, True
                for lib in libs:
                    rs = res[(np, g, k, lib)]
                    bad = [r for r in rs if isinstance(r, str)]
                    if bad:
                        ok = False
                        row[lib] = f'{bad[0]} ({len(bad)}/{len(rs)})'
                        continue
                    row[lib] = {'cut': statistics.median(r['cut'] for r in rs),
                                'imb': max(r['imb'] for r in rs), 'sec': statistics.median(r['sec'] for r in rs)}
                fmt = lambda lib, f, s: (row[lib] if isinstance(row[lib], str) else s % row[lib][f])
                print(f"| {np} | {g} | {k} | {fmt('hpart', 'cut', '%d')} | {fmt('scotch', 'cut', '%d')} | "
                      f"{fmt('hpart', 'imb', '%.3f')} | {fmt('scotch', 'imb', '%.3f')} | "
                      f"{fmt('hpart', 'sec', '%.4f')} | {fmt('scotch', 'sec', '%.4f')} |")
                if ok:
                    rr = ratios.setdefault(np, {'cut': [], 'sec': [], 'cut_ub': [], 'sec_ub': []})
                    rr['cut'].append(row['hpart']['cut'] / max(row['scotch']['cut'], 1))
                    rr['sec'].append(row['hpart']['sec'] / row['scotch']['sec'])
                    if row['scotch']['imb'] <= 1.05 + 1e-3 and row['hpart']['imb'] <= 1.05 + 1e-3:
                        rr['cut_ub'].append(rr['cut'][-1])
                        rr['sec_ub'].append(rr['sec'][-1])
    print()
    print('| np | cases | cut hpart / PT-Scotch | time hpart / PT-Scotch | cases both within ubvec | cut ratio there | time ratio there |')
    print('|---|---|---|---|---|---|---|')
    gm = lambda v: math.exp(sum(math.log(x) for x in v) / len(v)) if v else float('nan')
    for np, rr in sorted(ratios.items()):
        print(f"| {np} | {len(rr['cut'])} | {gm(rr['cut']):.3f} | {gm(rr['sec']):.3f} | {len(rr['cut_ub'])} | "
              f"{gm(rr['cut_ub']):.3f} | {gm(rr['sec_ub']):.3f} |")


if __name__ == '__main__':
    sys.exit(main())
