export default function Callback() {
  return <div>Callback</div>;
}
