// Rate data of the EMEP chemistry as the test set's emep.f sets it (its EMEPCF
// routine), kept as tables: Arrhenius pairs, constants, photolysis (A, B) pairs.
#include "emep_coefficients.hpp"

#include <cmath>
#include <numbers>

namespace emep {
namespace {

constexpr double temperature = 298.0;  // the source fixes T "for simplicity"
constexpr double air = 2.55e19, oxygen = 5.2e18;

struct Arrhenius {
  int k;
  double a, e_over_r;  // rc = a * exp(e_over_r / T)
};

// rc(k) = a exp(b / T).
constexpr Arrhenius arrhenius[] = {
    {11, 1.8e-12, -1370},  {12, 1.2e-13, -2450},  {13, 1.9e-12, -1000},  {14, 1.4e-14, -600},
    {15, 1.8e-11, 110},    {17, 3.7e-12, 240},    {19, 7.2e-14, -1414},  {29, 7.1e14, -11080},
    {30, 4.8e-11, 250},    {31, 2.9e-12, -160},   {33, 7.7e-12, -2100},  {35, 1.0e-14, 785},
    {59, 3.9e-12, -1885},  {60, 4.2e-12, 180},    {61, 5.5e-14, 365},    {62, 5.5e-14, 365},
    {63, 3.3e-12, -380},   {65, 3.8e-13, 780},    {67, 1.0e-12, 190},    {68, 1.9e-12, 190},
    {71, 7.8e-12, -1020},  {74, 6.5e-13, 650},    {75, 5.6e-12, 310},    {76, 5.8e-12, 190},
    {78, 1.34e16, -13330}, {81, 1.64e-11, -559},  {88, 1.3e-13, 1040},   {89, 3.0e-13, 1040},
    {94, 2.8e-12, 530},    {109, 1.66e-12, 474},  {112, 1.2e-14, -2630}, {123, 6.5e-15, -1880},
    {150, 12.3e-15, -2013}, {151, 2.54e-11, 410}, {153, 4.13e-12, 452},  {158, 1.86e-11, 175},
    {160, 4.32e-15, -2016},
};

struct Constant {
  int k;
  double value;
};

constexpr Constant constants[] = {
    {8, 2.2e-10},   {20, 1.4e-12},  {21, 1.4e-11},  {26, 4.1e-16},  {39, 1.35e-12}, {40, 4.0e-17},
    {64, 3.2e-12},  {66, 9.6e-12},  {69, 5.8e-16},  {70, 2.4e-13},  {72, 8.9e-12},  {77, 1.0e-11},
    {79, 2.0e-11},  {80, 1.1e-11},  {85, 1.0e-11},  {86, 1.15e-12}, {87, 4.8e-12},  {90, 8.0e-13},
    {125, 2.86e-11}, {146, 3.2e-11}, {147, 2.0e-11}, {148, 2.2e-11}, {149, 3.7e-11}, {156, 2.0e-11},
    {157, 8.0e-18}, {161, 3.35e-11}, {163, 7.8e-13}, {219, 2.0e-11}, {221, 1.1e-11}, {222, 1.7e-11},
    {223, 2.4e-11}, {234, 1.37e-11}, {235, 1.7e-11},
};

// Reactions whose rate the source takes equal to rc(60) (RO2 + NO) or rc(85) (HO2 + RO2).
constexpr int like_ro2_no[] = {83, 105, 110, 126, 152, 154, 159, 162, 164, 220, 236};

// Dry deposition velocities (cm/s) of rc(46..53), divided by the mixing height.
constexpr double deposition_velocity[] = {2.0, 0.5, 0.2, 0.5, 0.2, 0.1, 0.5, 0.3};

// Photolysis: dj(k) = A_k exp(-B_k sec(zenith angle)) by day.
constexpr double photolysis_a[16] = {1.23e-3, 2.00e-4, 1.45e-2, 2.20e-5, 3.00e-6, 5.40e-5, 6.65e-5, 1.35e-5,
                                     2.43e-5, 5.40e-4, 2.16e-4, 5.40e-5, 3.53e-2, 8.94e-2, 3.32e-5, 2.27e-5};
constexpr double photolysis_b[16] = {0.60, 1.40, 0.40, 0.75, 1.25, 0.79, 0.60, 0.94,
                                     0.88, 0.79, 0.79, 0.79, 0.081, 0.059, 0.57, 0.62};

Emissions make_emissions() {
  // 2.5e11 molecules / (cm^2 s) of NOx and of hydrocarbons (rural case); the VOC
  // split by mass fraction and molar mass.
  constexpr double nox = 2.5e11, hc = 2.5e11;
  constexpr double frac[6] = {0.07689, 0.41444, 0.03642, 0.03827, 0.24537, 0.13957};  // C2H6 NC4H10 C2H4 C3H6 OXYL C2H5OH
  constexpr double molar[6] = {30, 58, 28, 42, 106, 46};
  double inv = 0;
  for (int i = 0; i < 6; ++i) inv += frac[i] / molar[i];
  const double mean_molar = 1.0 / inv;
  auto voc = [&](int i) { return hc * frac[i] / molar[i] * mean_molar; };
  return Emissions{nox, nox, hc * 10.0, voc(0), voc(1), voc(2), voc(3), voc(4), voc(5), 0.5 * hc};
}

}  // namespace

const Emissions& emissions() {
  static const Emissions e = make_emissions();
  return e;
}

Coefficients coefficients_at(double t) {
  Coefficients c;
  const double T = temperature;
  // Hours into the present day (the source truncates the hour, then removes whole days).
  const double hours = t / 3600.0;
  const int day = static_cast<int>(hours) / 24;
  const double time_of_day = hours - day * 24.0;
  const bool night = time_of_day < 4.0 || time_of_day >= 20.0;

  const double pi = std::numbers::pi;
  const double hour_angle = (1.0 + time_of_day * 3600.0 / 4.32e4) * pi;
  const double latitude = 50.0 * pi / 180.0, declination = 23.5 * pi / 180.0;
  const double sec_zenith = 1.0 / (std::cos(hour_angle) * std::cos(latitude) * std::cos(declination) +
                                   std::sin(latitude) * std::sin(declination));

  const double humidity = 23.0 * std::sin(-7.93e-5 * time_of_day * 3600.0 + 2.43) + 66.5;  // percent
  const double xz = (597.3 - 0.57 * (T - 273.16)) * 18.0 / 1.986 * (1.0 / T - 1.0 / 273.16);
  c.h2o = 6.1078 * std::exp(-xz) * 10.0 / (1.38e-16 * T) * humidity;

  for (int k = 1; k <= 16; ++k)
    c.dj[k] = night ? 1e-40 : photolysis_a[k - 1] * std::exp(-photolysis_b[k - 1] * sec_zenith);

  auto& rc = c.rc;
  rc[1] = 5.7e-34 * std::pow(T / 300.0, -2.8) * air * oxygen;
  rc[5] = 9.6e-32 * std::pow(T / 300.0, -1.6) * air;
  rc[7] = 2.0e-11 * std::exp(100.0 / T) * air;
  for (const Arrhenius& r : arrhenius) rc[r.k] = r.a * std::exp(r.e_over_r / T);
  for (const Constant& r : constants) rc[r.k] = r.value;
  // HO2 + HO2, with its pressure and water dependence.
  rc[36] = (2.3e-13 * std::exp(600.0 / T) + air * 1.7e-33 * std::exp(1000.0 / T)) *
           (1.0 + 1.4e-21 * c.h2o * std::exp(2200.0 / T));
  for (int k : like_ro2_no) rc[k] = rc[60];
  rc[155] = rc[85];
  // Heterogeneous loss: 5e-6 /s below 90 % humidity, 1e-4 above. The source compares
  // the humidity in percent with 0.90, so the wet value always applies; kept, since the
  // reference was computed with it.
  rc[43] = humidity > 0.90 ? 1e-4 : 5e-6;
  rc[44] = rc[45] = rc[43];
  // Deposition, reduced fourfold at night for the surface inversion.
  const double inversion = night ? 0.25 : 1.0;
  for (int i = 0; i < 8; ++i) rc[46 + i] = deposition_velocity[i] * inversion / mixing_height;
  return c;
}

}  // namespace emep
