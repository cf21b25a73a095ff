#ifndef ERRTRIAGE_CBROTLI_SHIM_H
#define ERRTRIAGE_CBROTLI_SHIM_H
#include <brotli/decode.h>
#endif
