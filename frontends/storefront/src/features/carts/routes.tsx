/** /carts/* (customers; the shell's guard admits only them): the carts screen, exposed as './Carts'. */
export { default } from './components/Carts';
