/** Stands in for Node modules that a shared package requires but the page never calls. */
export {};
