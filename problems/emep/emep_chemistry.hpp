// The rates of change of the 66 species of the EMEP MSC-W ozone chemistry, as the IVP
// Test Set's emep.f defines them: for every species its production minus its loss
// rate times its concentration. Written once, for any scalar type, so that the exact
// Jacobian comes from the same equations by forward-mode automatic differentiation
// (emep.cpp) instead of a second hand-written copy.
//
// Species (1-based, the test set's order):
//   1 NO      2 NO2     3 SO2     4 CO      5 CH4     6 C2H6    7 NC4H10  8 C2H4
//   9 C3H6   10 OXYL   11 HCHO   12 CH3CHO 13 MEK    14 O3     15 HO2    16 HNO3
//  17 H2O2   18 H2     19 CH3O2  20 C2H5OH 21 SA     22 CH3O2H 23 C2H5O2 24 CH3COO
//  25 PAN    26 SECC4H 27 MEKO2  28 R2OOH  29 ETRO2  30 MGLYOX 31 PRRO2  32 GLYOX
//  33 OXYO2  34 MAL    35 MALO2  36 OP     37 OH     38 OD     39 NO3    40 N2O5
//  41 ISOPRE 42 NITRAT 43 ISRO2  44 MVK    45 MVKO2  46 CH3OH  47 RCO3H  48 OXYO2H
//  49 BURO2H 50 ETRO2H 51 PRRO2H 52 MEKO2H 53 MALO2H 54 MACR   55 ISNI   56 ISRO2H
//  57 MARO2  58 MAPAN  59 CH2CCH3 60 ISONO3 61 ISNIR 62 MVKO2H 63 CH2CHR 64 ISNO3H
//  65 ISNIRH 66 MARO2H
#pragma once

#include "emep_coefficients.hpp"

namespace emep {

// The terms every species' rate reads, under the test set's names: concentrations Y(i),
// rate coefficients RC(k), photolysis rates DJ(k), emissions, the mixing height, and the
// sums of peroxy radicals several species share. The species are split in two halves
// only to keep each function readable; every rate reads concentrations alone.
template <class S>
class Rates {
 public:
  Rates(const Coefficients& coefficients, const S* conc, S* rate)
      : c(coefficients),
        conc_(conc),
        rate_(rate),
        // Sums of peroxy radicals that react alike with NO and HO2.
        ro2_no(Y(19) + Y(26) + Y(27) + Y(29) + Y(31) + Y(33) + Y(35) + Y(43) + Y(45) + Y(59) + Y(61) + Y(60)),
        ro2_ho2(Y(26) + Y(29) + Y(31) + Y(27) + Y(57) + Y(45) + Y(61) + Y(59) + Y(33) + Y(35) + Y(43) + Y(60)),
        acyl(Y(24) + Y(57)) {}

  void species_1_to_35() const {
    set(1, DJ(3) * Y(2) + DJ(13) * Y(39) + RC(19) * Y(2) * Y(39) + e.no / h -
               (RC(5) * Y(36) + RC(11) * Y(14) + RC(17) * Y(15) + RC(72) * Y(23) + RC(79) * acyl + RC(15) * Y(39) +
                RC(60) * ro2_no) * Y(1));
    set(2, Y(1) * (RC(5) * Y(36) + RC(11) * Y(14) + RC(17) * Y(15) + RC(72) * Y(23) + RC(79) * acyl + 2.0 * RC(15) * Y(39)) +
               RC(60) * Y(1) * (Y(19) + Y(26) + Y(27) + Y(29) + Y(31) + Y(33) + Y(35) + Y(59)) +
               RC(60) * Y(1) * (0.86 * Y(43) + 1.9 * Y(61) + 1.1 * Y(60) + 0.95 * Y(45)) + DJ(14) * Y(39) +
               DJ(5) * Y(16) + DJ(15) * Y(40) + RC(29) * Y(40) + RC(78) * (Y(25) + Y(58)) -
               (DJ(3) + RC(12) * Y(14) + RC(20) * Y(39) + RC(21) * Y(37) + RC(48) + RC(77) * acyl) * Y(2));
    set(3, e.so2 / h - (RC(39) * Y(37) + RC(40) * Y(19) + RC(47)) * Y(3));
    set(4, e.co / h + Y(37) * (RC(66) * Y(11) + 2.0 * RC(221) * Y(32) + RC(222) * Y(30)) +
               Y(14) * (0.44 * RC(112) * Y(8) + 0.4 * RC(123) * Y(9) + 0.05 * RC(160) * Y(44) + 0.05 * RC(150) * Y(41)) +
               Y(11) * (DJ(6) + DJ(7) + RC(69) * Y(39)) + DJ(8) * Y(12) + DJ(11) * Y(30) + 2.0 * DJ(7) * Y(32) -
               RC(70) * Y(37) * Y(4));
    set(5, 0.07 * RC(123) * Y(14) * Y(9) - RC(59) * Y(37) * Y(5));  // methane is not emitted
    set(6, e.c2h6 / h - RC(71) * Y(37) * Y(6));
    set(7, e.nc4h10 / h - RC(81) * Y(37) * Y(7));
    set(8, e.c2h4 / h - (RC(109) * Y(37) + RC(112) * Y(14)) * Y(8));
    set(9, e.c3h6 / h + 0.07 * RC(150) * Y(14) * Y(41) - (RC(123) * Y(14) + RC(125) * Y(37)) * Y(9));
    set(10, e.oxyl / h - RC(234) * Y(37) * Y(10));
    set(11, Y(19) * (RC(60) * Y(1) + (2.0 * RC(61) + RC(62)) * Y(19) + RC(80) * Y(24) + RC(40) * Y(3)) +
                Y(37) * (RC(63) * Y(46) + RC(67) * Y(22)) +
                Y(1) * RC(60) * (2.0 * Y(29) + Y(31) + 0.74 * Y(43) + 0.266 * Y(45) + 0.15 * Y(60)) +
                Y(14) * (0.5 * RC(123) * Y(9) + RC(112) * Y(8) + 0.7 * RC(157) * Y(56) + 0.8 * RC(160) * Y(44) +
                         0.8 * RC(150) * Y(41)) +
                2.0 * DJ(7) * Y(32) + DJ(16) * (Y(22) + 1.56 * Y(50) + Y(51)) -
                (RC(66) * Y(37) + DJ(6) + DJ(7) + RC(69) * Y(39) + RC(53)) * Y(11));
    set(12, Y(1) * (RC(72) * Y(23) + RC(83) * Y(26) * secc4h9o_to_ch3cho + RC(105) * Y(27) + RC(126) * Y(31) +
                    0.95 * RC(162) * Y(61) + 0.684 * RC(154) * Y(45)) +
                Y(37) * (RC(64) * Y(20) + RC(76) * Y(28) + RC(76) * Y(50)) + 0.5 * RC(123) * Y(14) * Y(9) +
                0.04 * RC(160) * Y(14) * Y(44) + DJ(16) * (Y(28) + 0.22 * Y(50) + 0.35 * Y(49) + Y(51) + Y(52)) -
                (DJ(8) + RC(75) * Y(37) + RC(53)) * Y(12));
    set(13, RC(83) * Y(1) * Y(26) * secc4h9o_to_mek + (0.65 * DJ(16) + RC(76) * Y(37)) * Y(49) +
                RC(76) * Y(37) * Y(51) + (RC(159) * Y(1) + DJ(16)) * Y(59) + 0.95 * RC(162) * Y(1) * Y(61) -
                (DJ(9) + RC(86) * Y(37) + RC(53)) * Y(13));
    set(14, RC(1) * Y(36) + RC(89) * Y(15) * Y(24) -
                (RC(11) * Y(1) + RC(12) * Y(2) + RC(13) * Y(37) + RC(14) * Y(15) + RC(49) + RC(112) * Y(8) +
                 RC(123) * Y(9) + RC(157) * Y(56) + RC(160) * Y(44) + RC(150) * Y(41) + DJ(1) + DJ(2)) * Y(14));
    {
      const S from_oh = Y(37) * (RC(13) * Y(14) + RC(31) * Y(17) + RC(33) * Y(18) + RC(39) * Y(3) + RC(63) * Y(46) +
                                 RC(64) * Y(20) + RC(66) * Y(11) + RC(70) * Y(4) + RC(221) * Y(32));
      const S from_no = Y(1) * RC(60) *
                        (Y(19) + Y(29) + Y(31) + Y(33) + Y(35) + 0.95 * Y(45) + Y(26) * secc4h9o_to_mek + 0.78 * Y(43) +
                         Y(59) + 0.05 * Y(61) + 0.8 * Y(60));
      set(15, from_oh + Y(19) * (RC(40) * Y(3) + 2.0 * RC(61) * Y(19) + 0.5 * RC(80) * Y(24)) + DJ(11) * Y(30) +
                  from_no + RC(72) * Y(1) * Y(23) + DJ(8) * Y(12) + 2.0 * DJ(6) * Y(11) +
                  DJ(16) * (Y(22) + Y(28) + 0.65 * Y(49) + Y(50) + Y(51) + Y(48) + Y(53)) +
                  Y(39) * (RC(26) * Y(17) + RC(69) * Y(11)) +
                  Y(14) * (0.12 * RC(112) * Y(8) + 0.28 * RC(123) * Y(9) + 0.06 * RC(160) * Y(44)) +
                  0.06 * RC(150) * Y(14) * Y(41) -
                  (RC(14) * Y(14) + RC(17) * Y(1) + RC(30) * Y(37) + 2.0 * RC(36) * Y(15) + RC(65) * Y(19) +
                   RC(74) * Y(23) + (RC(88) + RC(89)) * Y(24) + RC(85) * ro2_ho2) * Y(15));
    }
    set(16, RC(21) * Y(2) * Y(37) + Y(39) * (RC(26) * Y(17) + RC(69) * Y(11)) -
                (RC(35) * Y(37) + DJ(5) + RC(45)) * Y(16));
    set(17, RC(36) * Y(15) * Y(15) - (RC(31) * Y(37) + DJ(4) + RC(43) + RC(26) * Y(39) + RC(47)) * Y(17));
    set(18, DJ(7) * Y(11) + Y(14) * (0.13 * RC(112) * Y(8) + 0.07 * RC(123) * Y(9)) - RC(33) * Y(37) * Y(18));
    set(19, Y(37) * (RC(59) * Y(5) + RC(68) * Y(22)) + Y(24) * (RC(79) * Y(1) + 2.0 * RC(94) * Y(24)) +
                DJ(8) * Y(12) + DJ(16) * Y(47) + 0.31 * RC(123) * Y(14) * Y(9) -
                (RC(40) * Y(3) + RC(60) * Y(1) + 2.0 * RC(61) * Y(19) + 2.0 * RC(62) * Y(19) + RC(65) * Y(15) +
                 0.5 * RC(80) * Y(24)) * Y(19));
    set(20, e.c2h5oh / h - RC(64) * Y(37) * Y(20));
    set(21, (RC(40) * Y(19) + RC(39) * Y(37)) * Y(3) + 0.05 * e.so2 / h - RC(51) * Y(21));  // 5 % of SO2 emitted as sulphate
    set(22, RC(65) * Y(15) * Y(19) - (RC(43) + DJ(16) + (RC(67) + RC(68)) * Y(37)) * Y(22));
    set(23, Y(37) * (RC(71) * Y(6) + RC(68) * Y(28)) + 0.35 * DJ(16) * Y(49) +
                RC(83) * Y(1) * Y(26) * secc4h9o_to_ch3cho + DJ(9) * Y(13) - (RC(72) * Y(1) + RC(74) * Y(15)) * Y(23));
    set(24, Y(37) * (RC(75) * Y(12) + RC(222) * Y(30) + RC(68) * Y(47)) + RC(105) * Y(1) * Y(27) + RC(78) * Y(25) +
                DJ(11) * Y(30) + DJ(9) * Y(13) + DJ(16) * Y(52) + 0.684 * RC(154) * Y(1) * Y(45) -
                (RC(77) * Y(2) + RC(79) * Y(1) + RC(80) * Y(19) + 2.0 * RC(94) * Y(24) + (RC(88) + RC(89)) * Y(15)) *
                    Y(24));
    set(25, RC(77) * Y(24) * Y(2) - (RC(50) + RC(78)) * Y(25));
    set(26, Y(37) * (RC(81) * Y(7) + RC(68) * Y(49)) - (RC(83) * Y(1) + RC(85) * Y(15)) * Y(26));
    set(27, Y(37) * (RC(86) * Y(13) + RC(87) * Y(52)) - (RC(105) * Y(1) + RC(85) * Y(15)) * Y(27));
    set(28, RC(74) * Y(15) * Y(23) - ((RC(76) + RC(68)) * Y(37) + DJ(16) + RC(52)) * Y(28));
    set(29, Y(37) * (RC(109) * Y(8) + RC(68) * Y(50)) - (RC(110) * Y(1) + RC(85) * Y(15)) * Y(29));
    set(30, RC(236) * Y(1) * Y(33) + RC(220) * Y(1) * Y(35) + 0.266 * RC(154) * Y(1) * Y(45) +
                0.82 * RC(160) * Y(14) * Y(44) + DJ(16) * (Y(48) + Y(53)) - (DJ(11) + RC(222) * Y(37)) * Y(30));
    set(31, Y(37) * (RC(125) * Y(9) + RC(68) * Y(51)) - (RC(126) * Y(1) + RC(85) * Y(15)) * Y(31));
    set(32, RC(220) * Y(1) * Y(35) + DJ(16) * Y(53) - (2.0 * DJ(7) + RC(221) * Y(37)) * Y(32));
    set(33, Y(37) * (RC(234) * Y(10) + RC(235) * Y(48)) - (RC(236) * Y(1) + RC(85) * Y(15)) * Y(33));
    set(34, RC(236) * Y(1) * Y(33) + DJ(16) * Y(48) - RC(219) * Y(37) * Y(34));
    set(35, Y(37) * (RC(219) * Y(34) + RC(223) * Y(53)) - (RC(220) * Y(1) + RC(85) * Y(15)) * Y(35));
  }

  void species_36_to_66() const {
    set(36, DJ(1) * Y(14) + DJ(3) * Y(2) + DJ(14) * Y(39) + RC(7) * Y(38) + 0.2 * RC(160) * Y(14) * Y(44) +
                0.3 * RC(150) * Y(14) * Y(41) - (RC(1) + RC(5) * Y(1)) * Y(36));
    {
      const S oh_production = 2.0 * RC(8) * c.h2o * Y(38) + Y(15) * (RC(14) * Y(14) + RC(17) * Y(1)) +
                              2.0 * DJ(4) * Y(17) + DJ(5) * Y(16) +
                              DJ(16) * (Y(22) + Y(28) + Y(47) + Y(49) + Y(50) + Y(52) + Y(48) + Y(53)) +
                              Y(14) * (0.15 * RC(123) * Y(9) + 0.08 * RC(160) * Y(44)) + 0.55 * RC(150) * Y(14) * Y(41);
      const S oh_loss = RC(222) * Y(30) + RC(75) * Y(12) + RC(81) * Y(7) + RC(87) * Y(52) + RC(86) * Y(13) +
                        RC(235) * Y(48) + RC(109) * Y(8) + RC(125) * Y(9) + RC(234) * Y(10) + RC(223) * Y(53) +
                        RC(219) * Y(34) + RC(31) * Y(17) + RC(21) * Y(2) + RC(148) * Y(62) + RC(64) * Y(20) +
                        RC(39) * Y(3) + RC(71) * Y(6) + RC(30) * Y(15) + RC(59) * Y(5) + RC(70) * Y(4) + RC(35) * Y(16) +
                        RC(13) * Y(14) + RC(221) * Y(32) + RC(68) * (Y(22) + Y(28) + Y(47) + Y(50) + Y(51) + Y(49)) +
                        RC(66) * Y(11) + RC(151) * Y(41) + RC(153) * Y(44) + RC(63) * Y(46) + RC(33) * Y(18) +
                        RC(158) * Y(54) + RC(146) * Y(63) + RC(149) * (Y(65) + Y(66)) + RC(147) * Y(64) + RC(161) * Y(55);
      set(37, oh_production - oh_loss * Y(37));
    }
    set(38, DJ(2) * Y(14) - (RC(7) + RC(8) * c.h2o) * Y(38));
    set(39, (RC(29) + DJ(15)) * Y(40) + RC(12) * Y(14) * Y(2) + RC(35) * Y(37) * Y(16) -
                (RC(15) * Y(1) + RC(26) * Y(17) + RC(163) * Y(41) + RC(19) * Y(2) + RC(20) * Y(2) + DJ(13) + DJ(14) +
                 RC(69) * Y(11)) * Y(39));
    set(40, RC(20) * Y(39) * Y(2) - (RC(29) + DJ(15) + RC(45)) * Y(40));
    set(41, e.isoprene / h - (RC(151) * Y(37) + RC(163) * Y(39) + RC(150) * Y(14)) * Y(41));
    set(42, RC(45) * Y(16) + 2.0 * RC(44) * Y(40) - RC(51) * Y(42));
    set(43, Y(37) * (RC(151) * Y(41) + RC(156) * Y(56)) + 0.12 * RC(152) * Y(1) * Y(43) -
                (RC(152) * Y(1) + RC(155) * Y(15)) * Y(43));
    set(44, RC(60) * Y(1) * (0.42 * Y(43) + 0.05 * Y(60)) + 0.26 * RC(150) * Y(14) * Y(41) -
                (RC(153) * Y(37) + RC(160) * Y(14)) * Y(44));
    set(45, RC(153) * Y(44) * Y(37) + RC(148) * Y(37) * Y(62) - (RC(154) * Y(1) + RC(85) * Y(15)) * Y(45));
    set(46, RC(62) * Y(19) * Y(19) - RC(63) * Y(37) * Y(46));
    set(47, RC(88) * Y(15) * Y(24) - (RC(68) * Y(37) + DJ(16) + RC(52)) * Y(47));
    set(48, RC(85) * Y(15) * Y(33) - (RC(235) * Y(37) + DJ(16) + RC(52)) * Y(48));
    set(49, RC(85) * Y(15) * Y(26) - ((RC(76) + RC(68)) * Y(37) + DJ(16) + RC(52)) * Y(49));
    set(50, RC(85) * Y(15) * Y(29) - ((RC(76) + RC(68)) * Y(37) + DJ(16) + RC(52)) * Y(50));
    set(51, RC(85) * Y(15) * Y(31) - ((RC(76) + RC(68)) * Y(37) + DJ(16) + RC(52)) * Y(51));
    set(52, RC(85) * Y(15) * Y(27) - (RC(87) * Y(37) + DJ(16) + RC(52)) * Y(52));
    set(53, RC(85) * Y(15) * Y(35) - (RC(223) * Y(37) + DJ(16) + RC(52)) * Y(53));
    set(54, RC(60) * Y(1) * (0.32 * Y(43) + 0.1 * Y(60)) + 0.67 * RC(150) * Y(14) * Y(41) - RC(158) * Y(37) * Y(54));
    set(55, RC(60) * Y(1) * (0.14 * Y(43) + 0.05 * Y(45) + 0.85 * Y(60)) - RC(161) * Y(37) * Y(55));
    set(56, RC(155) * Y(15) * Y(43) - (RC(156) * Y(37) + RC(157) * Y(14) + RC(52)) * Y(56));
    set(57, 0.5 * RC(158) * Y(37) * Y(54) + RC(78) * Y(58) + RC(149) * Y(37) * Y(66) -
                (RC(77) * Y(2) + RC(79) * Y(1) + RC(85) * Y(15)) * Y(57));
    set(58, RC(77) * Y(57) * Y(2) - (RC(50) + RC(78)) * Y(58));
    set(59, RC(79) * Y(1) * Y(57) + RC(146) * Y(37) * Y(63) - (RC(159) * Y(1) + RC(85) * Y(15)) * Y(59));
    set(60, RC(163) * Y(39) * Y(41) + RC(147) * Y(37) * Y(64) - (RC(164) * Y(1) + RC(85) * Y(15)) * Y(60));
    set(61, RC(161) * Y(37) * Y(55) + RC(149) * Y(37) * Y(65) - (RC(162) * Y(1) + RC(85) * Y(15)) * Y(61));
    set(62, RC(85) * Y(15) * Y(45) - (RC(148) * Y(37) + RC(52)) * Y(62));
    set(63, RC(85) * Y(15) * Y(59) - (RC(146) * Y(37) + RC(52)) * Y(63));
    set(64, RC(85) * Y(15) * Y(60) - (RC(147) * Y(37) + RC(52)) * Y(64));
    set(65, RC(85) * Y(15) * Y(61) - (RC(149) * Y(37) + RC(52)) * Y(65));
    set(66, RC(85) * Y(15) * Y(57) - (RC(149) * Y(37) + RC(52)) * Y(66));
  }

 private:
  const S& Y(int i) const { return conc_[i - 1]; }
  double RC(int k) const { return c.rc[k]; }
  double DJ(int k) const { return c.dj[k]; }
  void set(int i, const S& v) const { rate_[i - 1] = v; }

  static constexpr double secc4h9o_to_mek = 0.65, secc4h9o_to_ch3cho = 0.35;  // decay paths of sec-C4H9O
  const Coefficients& c;
  const S* conc_;
  S* rate_;
  const Emissions& e = emissions();
  const double h = mixing_height;
  const S ro2_no, ro2_ho2, acyl;
};

template <class S>
void rates_of_change(const Coefficients& c, const S* conc, S* rate) {
  const Rates<S> rates(c, conc, rate);
  rates.species_1_to_35();
  rates.species_36_to_66();
}

}  // namespace emep
