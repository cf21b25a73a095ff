// The rules of short names, short keys and full forms live in ChainRules, which the app library
// (ErrorChainKit) shares; every module that imports TriageModel sees them as before.
@_exported import ChainRules
