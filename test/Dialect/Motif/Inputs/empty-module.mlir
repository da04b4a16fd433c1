// A module without a function.
module {
}
