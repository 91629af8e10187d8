# med(key): the median of v[key, 1 .. cnt[key]], for the bench scripts' awk programs
# (awk "$(cat bench/mpi/median.awk)"'...their program...').
function med(key,   n, i, j, t, a) {
    n = cnt[key]; for (i = 1; i <= n; i++) a[i] = v[key, i]
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
