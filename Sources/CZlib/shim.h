#ifndef ERRTRIAGE_CZLIB_SHIM_H
#define ERRTRIAGE_CZLIB_SHIM_H
#include <zlib.h>
#endif
