/** /profile (every signed-in role; the shell's guard admits them): exposed as './Profile'. */
export { default } from './components/Profile';
