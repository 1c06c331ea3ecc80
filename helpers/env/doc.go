// Package env reads environment variables with typed, lenient or strict
// conversion. It is the Go form of the seed's EnvHelper:
//
//	EnvHelper::get      → Get
//	EnvHelper::has      → Has
//	EnvHelper::string   → String
//	EnvHelper::integer  → Integer
//	EnvHelper::boolean  → Boolean
//	EnvHelper::float    → Float
//	EnvHelper::array    → Array
//
// The package functions read the process environment (os.LookupEnv); New
// builds an Env over any lookup function, which is how tests and callers
// that must not touch the real environment use it.
//
// A decimal literal is an optional sign, digits with an optional fraction
// ("5", "5.", ".5", "5.25") and an optional exponent ("e"/"E", optional
// sign, digits). Inf, NaN, hex, octal prefixes and underscores are not
// numbers, although strconv accepts some of them.
//
// With forceCast=true (lenient, like the seed's reference) Integer and Float
// read the longest decimal-literal prefix after leading whitespace, Integer
// truncating toward zero and saturating at the int64 bounds; Boolean is true
// for a numeric string whose value is not zero and otherwise only for "true"
// in any case. With forceCast=false (strict) the trimmed value must be
// wholly an int64, a finite decimal literal, or one of true/false/1/0, and
// anything else is an error naming the key, the wanted type and the value.
// The reference compares PHP types in strict mode, which can never succeed
// for environment strings, so strict mode here validates the text instead.
package env
