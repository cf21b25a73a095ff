#ifndef ERRTRIAGE_CZSTD_SHIM_H
#define ERRTRIAGE_CZSTD_SHIM_H
#include <zstd.h>
#include <zdict.h>
#endif
