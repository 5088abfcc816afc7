#ifndef DPG_MATH_H
#define DPG_MATH_H
/* Declarations only: the test programs (csmith without --float) use no floating point. */
double fabs(double x);
float fabsf(float x);
#endif
