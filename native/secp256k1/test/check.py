# Checks the output of field_check / scalar_check (directed, random and edge operands with
# their results, one line each) against Python's integers. Usage (from native/secp256k1):
#   g++ -O2 -Isrc test/field_check.cc -o /tmp/fc && /tmp/fc > /tmp/fe.txt
#   g++ -O2 -Isrc test/scalar_check.cc src/scalar.cc src/msm.cc -o /tmp/sc && /tmp/sc > /tmp/sc.txt
#   python3 test/check.py /tmp/fe.txt /tmp/sc.txt
import sys

P = 2**256 - 2**32 - 977
N = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141


def check_field(path):
    bad = 0
    lines = [l for l in open(path).read().split('\n') if l]
    for l in lines:
        a, b, m, q, s, d, ng, m8, inv = [int(x, 16) for x in l.split()]
        want = [a * b % P, a * a % P, (a + b) % P, (a - b) % P, -a % P, 8 * a % P, pow(a, P - 2, P)]
        if [m, q, s, d, ng, m8, inv] != want:
            bad += 1
    return len(lines), bad


def check_scalar(path):
    bad = 0
    lines = [l for l in open(path).read().split('\n') if l]
    *ops, inv = lines
    for l in ops:
        a, b, m, s, d = [int(x, 16) for x in l.split()]
        if [m, s, d] != [a * b % N, (a + b) % N, (a - b) % N]:
            bad += 1
    return len(ops), bad + (int(inv, 16) != 1)


fe = check_field(sys.argv[1])
sc = check_scalar(sys.argv[2])
print(f'field: {fe[0]} lines, {fe[1]} wrong; scalar: {sc[0]} lines, {sc[1]} wrong')
sys.exit(1 if fe[1] or sc[1] else 0)
