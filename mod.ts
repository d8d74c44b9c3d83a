/**
 * kubefold: a Kubernetes controller framework for Deno in functional reactive style.
 *
 * @module
 */
export {};
