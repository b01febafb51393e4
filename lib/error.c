// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** Error names and messages, generated from FRD_ERRNO_MAP. */
#include "decode.h"
#include "internal.h"

// The decoders below lib/ return their own malformed-record code; the backends pass it on
// as the public one, so the two must agree (checked here once for every backend).
_Static_assert(FRD__DECODE_EMALFORMED == FRD_EMALFORMED, "decode/ and frd.h disagree");

unsigned frd_version(void)
{
    return FRD_VERSION_HEX;
}

const char *frd_strerror(int code)
{
    switch (code) {
#define FRD__STRERROR_CASE(name, value, message) \
    case FRD_##name:                             \
        return message;
        FRD_ERRNO_MAP(FRD__STRERROR_CASE)
#undef FRD__STRERROR_CASE
    default:
        return "unknown error";
    }
}

const char *frd_err_name(int code)
{
    switch (code) {
#define FRD__ERR_NAME_CASE(name, value, message) \
    case FRD_##name:                             \
        return #name;
        FRD_ERRNO_MAP(FRD__ERR_NAME_CASE)
#undef FRD__ERR_NAME_CASE
    default:
        return "EUNKNOWN";
    }
}
