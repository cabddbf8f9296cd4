export default function Reset() {
  return <div>Reset</div>;
}
