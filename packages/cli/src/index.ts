export { runCli } from './cli';
export { Printer } from './printer';
