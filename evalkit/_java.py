"""Java 17's ``Double.toString``, digit for digit: how Spark prints a double.

Spark prints a Scala ``Double`` with Java's ``Double.toString``, whose digits
come from ``FloatingDecimal.dtoa``: Steele & White's free-format loop, which
generates digits until the rest is within half an ulp (``M``) of either
neighbour of the double, then rounds the last one. Those are usually the
shortest digits that read back as the same double (Python's ``repr``), but
Java 17 keeps quirks that decide the digits now and then, all kept here:

* ``M`` is halved for a significand that is a power of two, subnormals too
  (whose spacing does not change);
* the decimal exponent is estimated, and when the estimate is one too high the
  loop's first digit is a 0, which it drops;
* in E-form (below 10^-3 or from 10^7 on) a second digit is always generated;
* the loop runs in Java ``int`` or ``long`` arithmetic when its numbers fit,
  and an overflow of ``M`` there ends it;
* a double that is an integer below 2^63 prints its exact digits, rounded only
  above 2^54.

Java 19 and later print the shortest digits everywhere (JDK-4511638).
"""

from __future__ import annotations

import math
import struct

__all__ = ["double_to_string", "java_digits"]

#: Bits of 5**i for i < 27, as Java tabulates them (``N_5_BITS``).
FIVE_POWER_BITS = [(5 ** i).bit_length() for i in range(27)]


def double_to_string(x: float) -> str:
    """Java's ``Double.toString(x)``: plain for 1e-3 <= |x| < 1e7, else ``d.dddE±n``."""
    if math.isnan(x):
        return "NaN"
    sign = ""
    if math.copysign(1.0, x) < 0:   # -0.0 too
        sign = "-"
    if math.isinf(x):
        return sign + "Infinity"
    if x == 0:
        return sign + "0.0"
    digits, point = java_digits(abs(x))
    return sign + _laid_out(digits, point)


def _laid_out(digits, point):
    """The number 0.digits x 10^point as Java writes it."""
    if 0 < point < 8:
        whole = digits[:point].ljust(point, "0")
        fraction = digits[point:] or "0"
        return f"{whole}.{fraction}"
    if -3 < point <= 0:
        zeros = "0" * -point
        return f"0.{zeros}{digits}"
    fraction = digits[1:] or "0"
    return f"{digits[0]}.{fraction}E{point - 1}"


def java_digits(x: float) -> tuple[str, int]:
    """Java 17's digits of ``x > 0``: ``(digits, point)``, x ≈ 0.digits x 10^point."""
    significand, exponent, significant_bits = _binary_parts(x)
    trailing_zeros = (significand & -significand).bit_length() - 1
    fraction_bits = 53 - trailing_zeros      # the significand's bits down to its last 1
    tiny_bits = max(0, fraction_bits - exponent - 1)   # of those, the bits below the point
    if -21 <= exponent <= 62 and tiny_bits == 0:
        return _integer_digits(significand, exponent)
    decimal_exponent = _estimated_exponent(significand, exponent)
    loop = _Loop(significand >> trailing_zeros, exponent, significant_bits, fraction_bits,
                 tiny_bits, decimal_exponent)
    digits = loop.run()
    text = "".join(map(str, digits))
    point = loop.decimal_exponent + 1
    if loop.rounds_up(digits[-1]):
        text, point = _rounded_up(text, point)
    return text, point


def _binary_parts(x):
    """``(significand, exponent, significant_bits)`` of ``x > 0``, as Java reads them.

    The significand is a 53-bit integer whose top bit is 1 (a subnormal's
    bits are shifted up to it): x = significand x 2^(exponent - 52).
    ``significant_bits`` is 53, or the number of bits a subnormal holds.
    """
    bits = struct.unpack("<q", struct.pack("<d", x))[0]
    stored = bits & ((1 << 52) - 1)
    biased_exponent = bits >> 52
    if biased_exponent == 0:   # a subnormal
        significant_bits = stored.bit_length()
        significand = stored << (53 - significant_bits)
        return significand, significant_bits - 1075, significant_bits
    return stored | (1 << 52), biased_exponent - 1023, 53


def _integer_digits(significand, exponent):
    """The digits of a double that is an integer below 2^63 (Java's ``developLongDigits``).

    Exact, except that Java drops the digits below those of 2^(exponent - 54)
    (``insignificantDigitsForPow2``), rounding half up.
    """
    if exponent >= 52:
        value = significand << (exponent - 52)
    else:
        value = significand >> (52 - exponent)
    dropped = 0
    if exponent - 54 > 1:
        dropped = len(str(2 ** (exponent - 54))) - 1
    if dropped:
        unit = 10 ** dropped
        value, rest = divmod(value, unit)
        if rest >= unit // 2:
            value += 1
    text = str(value)
    return text.rstrip("0"), len(text) + dropped


def _estimated_exponent(significand, exponent):
    """Java's ``estimateDecExp``: floor(log10 x) from a straight line through log10 on [1, 2).

    Now and then one too high; the digit loop then drops its leading 0.
    """
    fraction = significand & ((1 << 52) - 1)
    mantissa = struct.unpack("<d", struct.pack("<q", (1023 << 52) | fraction))[0]   # in [1, 2)
    log10 = (mantissa - 1.5) * 0.289529654 + 0.176091259 + exponent * 0.301029995663981
    return math.floor(log10)


def _five_power_bits(i):
    """The bits of 5**i: the table below 27, else Java's bound 3i."""
    if i < len(FIVE_POWER_BITS):
        return FIVE_POWER_BITS[i]
    return 3 * i


def _wrapped(value, width):
    """``value`` as a Java ``int`` (width 32) or ``long`` (64) holds it after overflow.

    Width 0 is Java's ``BigInteger``: no overflow.
    """
    if not width:
        return value
    value &= (1 << width) - 1
    if value >> (width - 1):
        return value - (1 << width)
    return value


class _Loop:
    """Steele & White's digit loop as Java 17 runs it, on the double scaled to integers.

    With x = b / s x 10^(decimal_exponent + 1) at the start, each step takes
    the next digit q = b // s and multiplies the rest b and the margin m by
    10; the loop stops when the rest is within m of the lower neighbour
    (``low``) or of the upper one (``high``): ``b < m``, ``b + m > 10 s``.
    """

    def __init__(self, odd_significand, exponent, significant_bits, fraction_bits, tiny_bits,
                 decimal_exponent):
        # the powers of 5 and 2 that make b, s and m integers (Java's B5, S5, B2, S2, M2)
        b5 = max(0, -decimal_exponent)
        s5 = max(0, decimal_exponent)
        b2 = b5 + tiny_bits + exponent - (fraction_bits - 1)
        s2 = s5 + tiny_bits
        m2 = b5 + tiny_bits + exponent - significant_bits
        common = min(b2, s2)
        b2 -= common
        s2 -= common
        m2 -= common
        if fraction_bits == 1:   # a power of two: M is halved
            m2 -= 1
        if m2 < 0:   # M stays an integer: all three are doubled as often
            b2 -= m2
            s2 -= m2
            m2 = 0
        self.width = self._java_width(fraction_bits + b2 + _five_power_bits(b5),
                                      s2 + 1 + _five_power_bits(s5 + 1))
        self.b = (odd_significand * 5 ** b5) << b2
        self.s = 5 ** s5 << s2
        self.m = 5 ** b5 << m2
        self.tens = 10 * self.s
        self.decimal_exponent = decimal_exponent
        self.low = self.high = False

    @staticmethod
    def _java_width(b_bits, ten_s_bits):
        """The arithmetic Java chooses: ``int`` (32), ``long`` (64) or ``BigInteger`` (0)."""
        widest = max(b_bits, ten_s_bits)
        if widest < 32:
            return 32
        if widest < 64:
            return 64
        return 0

    def _step(self):
        """The next digit; the rest and the margin times 10."""
        digit, rest = divmod(self.b, self.s)
        self.b = 10 * rest
        self.m = _wrapped(10 * self.m, self.width)
        return digit

    def _check_ends(self):
        """``low`` and ``high``: is the rest within the margin of a neighbour?"""
        self.low = self.b < self.m
        if self.width:
            self.high = _wrapped(self.b + self.m, self.width) > self.tens
        else:
            self.high = self.b + self.m >= self.tens

    def run(self):
        """The digits, as a list of ints; ``decimal_exponent`` corrected."""
        digits = []
        first = self._step()
        self._check_ends()
        if first == 0 and not self.high:
            self.decimal_exponent -= 1   # the estimate was one too high: no leading 0
        else:
            digits.append(first)
        if self.decimal_exponent < -3 or self.decimal_exponent >= 8:
            self.low = self.high = False   # E-form prints at least two digits
        while not (self.low or self.high):
            digit = self._step()
            if self.m > 0:
                self._check_ends()
            else:   # Java's int or long margin overflowed: the loop ends here
                self.low = self.high = True
            digits.append(digit)
        return digits

    def rounds_up(self, last_digit):
        """Java's choice after the loop: up when the upper neighbour is nearer (ties to even)."""
        if not self.high:
            return False
        if not self.low:
            return True
        twice_rest = 2 * self.b
        if twice_rest == self.tens:
            return last_digit % 2 == 1
        return twice_rest > self.tens


def _rounded_up(text, point):
    """``text`` plus 1 in its last digit; a carry runs through trailing 9s (Java's ``roundup``)."""
    up = str(int(text) + 1).zfill(len(text))
    if len(up) > len(text):   # 99 -> 100: the carry out adds a digit before the point
        point += 1
    return up[:len(text)], point
